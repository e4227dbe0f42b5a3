"""Verdicts of a generated Python package on JSON inputs, one per line.

Usage: python verdicts.py <package folder> <import name> < inputs.jsonl

Each input line is ``{"definition": name, "value": ...}`` (validated with the
package's ``validate``) or ``{"message": ...}`` (parsed with
``parse_message``). Each output line is ``1`` (accepted) or ``0`` and, after a
tab, the first problem, so a disagreement can be read.
"""

import importlib
import json
import sys

sys.path.insert(0, sys.argv[1])
package = importlib.import_module(sys.argv[2])

for line in sys.stdin:
    case = json.loads(line)
    if "message" in case:
        result = package.parse_message(case["message"])
        verdict = "1" if result.ok else "0\t" + json.dumps(result.error)[:200]
    else:
        problems = package.validate(case["definition"], case["value"])
        verdict = "0\t" + json.dumps(problems[0]) if problems else "1"
    sys.stdout.write(verdict + "\n")
