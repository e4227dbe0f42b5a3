// @ts-check
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      "dist/",
      "coverage/",
      ".venv/",
      "test/fixtures/",
      "test/golden/",
      "generated/",
    ],
  },
  js.configs.recommended,
  {
    files: ["**/*.ts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: "./tsconfig.lint.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `const { $id: _id, ...rest } = node` is how the source drops keys from a copy: the
      // named siblings exist to be left out of `rest`, so they are not unused.
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  {
    // Scaffold sources compile only inside a scaffolded project (they import its generated
    // modules), where the project's own typecheck covers them; here they get the untyped rules.
    files: ["templates/server/**/*.ts", "templates/client/**/*.ts"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parserOptions: { project: false } },
  },
  {
    // Plain JavaScript here is Node scripts (bench servers, build helpers) and this config.
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
);
