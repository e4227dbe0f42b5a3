/**
 * Where the development authorization server keeps what oidc-provider
 * stores (its adapter interface): everything in memory, and registered
 * clients also in `.auth-dev/clients.json`, because a client keeps its
 * registration across runs and must still be known after a restart.
 * Sessions, codes and tokens are lost on restart; a client whose refresh
 * fails then simply signs in again.
 */
import { readClients, writeClients } from "./auth-dev-files.js";

type Payload = Record<string, unknown>;

interface Entry {
  readonly payload: Payload;
  /** When it expires (ms since the epoch), or never. */
  readonly expiresAt?: number;
}

/** At most this many records per model: a loop that registers clients cannot fill the disk. */
const MAX_RECORDS = 10_000;

/** An adapter class for oidc-provider whose instances share one store, kept by `dir`. */
export function devStore(dir: string): new (model: string) => object {
  const models = new Map<string, Map<string, Entry>>();
  const clients = new Map<string, Entry>(
    [...readClients(dir)].map(([id, payload]) => [id, { payload }]),
  );
  models.set("Client", clients);
  const saveClients = () =>
    writeClients(dir, new Map([...clients].map(([id, entry]) => [id, entry.payload])));

  return class DevStoreAdapter {
    private readonly records: Map<string, Entry>;

    constructor(private readonly model: string) {
      if (!models.has(model)) models.set(model, new Map());
      this.records = models.get(model)!;
    }

    private live(id: string): Entry | undefined {
      const entry = this.records.get(id);
      if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
        this.records.delete(id);
        return undefined;
      }
      return entry;
    }

    upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      if (!this.records.has(id) && this.records.size >= MAX_RECORDS) sweep(this.records);
      if (!this.records.has(id) && this.records.size >= MAX_RECORDS)
        return Promise.reject(new Error(`more than ${MAX_RECORDS} ${this.model} records`));
      this.records.set(id, {
        payload,
        ...(expiresIn ? { expiresAt: Date.now() + expiresIn * 1000 } : {}),
      });
      if (this.model === "Client") saveClients();
      return Promise.resolve();
    }

    find(id: string): Promise<Payload | undefined> {
      return Promise.resolve(this.live(id)?.payload);
    }

    findByUid(uid: string): Promise<Payload | undefined> {
      return Promise.resolve(this.findWhere((p) => p.uid === uid));
    }

    findByUserCode(userCode: string): Promise<Payload | undefined> {
      return Promise.resolve(this.findWhere((p) => p.userCode === userCode));
    }

    consume(id: string): Promise<void> {
      const entry = this.live(id);
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }

    destroy(id: string): Promise<void> {
      this.records.delete(id);
      if (this.model === "Client") saveClients();
      return Promise.resolve();
    }

    revokeByGrantId(grantId: string): Promise<void> {
      for (const [id, entry] of this.records)
        if (entry.payload.grantId === grantId) this.records.delete(id);
      return Promise.resolve();
    }

    private findWhere(test: (payload: Payload) => boolean): Payload | undefined {
      for (const id of this.records.keys()) {
        const entry = this.live(id);
        if (entry && test(entry.payload)) return entry.payload;
      }
      return undefined;
    }
  };
}

/** Drops the expired records. */
function sweep(records: Map<string, Entry>): void {
  const now = Date.now();
  for (const [id, entry] of records)
    if (entry.expiresAt !== undefined && entry.expiresAt <= now) records.delete(id);
}
