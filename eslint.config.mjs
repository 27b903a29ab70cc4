import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * Office's globals. Only src/office/ touches them, so everything else runs (and
 * is tested) without Office. Type references such as
 * `CustomFunctions.CancelableInvocation` in src/functions/functions.ts (which
 * custom-functions-metadata reads) do nothing at run time and stay allowed.
 */
const OFFICE_GLOBALS = ["Office", "Excel", "OfficeRuntime", "CustomFunctions"];
const OFFICE_ONLY = "Office globals are used only in src/office/: call a function there.";
/*
 * Layer rules: what each folder may import. core/ imports nothing of ours;
 * api/ (its top and its rooms http/, series/, store/) imports core/ and itself
 * only; the rest of src/ reaches api/ only through its door (src/api/index.ts);
 * the sandbox imports nothing from src/. Import sources are matched as written,
 * relative to the importing file, so a room's rule counts one more "../".
 */
const CORE_IMPORTS_NOTHING_OF_OURS = {
  regex: String.raw`^\.\./`,
  message:
    "core/ is the bottom layer: it imports nothing of ours outside core/ (move the code into core/, or pass it in).",
};
const API_ONLY_CORE_MESSAGE =
  "api/ imports only core/ (and itself): the client must not depend on functions, Office or the pane.";
const API_IMPORTS_ONLY_CORE = { regex: String.raw`^\.\./(?!core(/|$))`, message: API_ONLY_CORE_MESSAGE };
/** The same rule for a file in one of api/'s rooms (api/http/, api/series/, api/store/): `../` is api/ itself. */
const API_ROOM_IMPORTS_ONLY_CORE = { regex: String.raw`^\.\./\.\./(?!core(/|$))`, message: API_ONLY_CORE_MESSAGE };
const API_THROUGH_ITS_DOOR = {
  regex: String.raw`^(\.\./)+api/`,
  message:
    'Outside api/, import the client through its one door, "../api" (src/api/index.ts); add to the door what is missing.',
};
/** The tools run without the test suites: what they share with the tests lives in harness/, which test/ may import. */
const TOOLS_IMPORT_NOTHING_OF_TEST = {
  regex: String.raw`^(\.\./)+test(/|$)`,
  message:
    "bench/, scripts/ and harness/ import nothing of test/: move what they share with the tests into harness/ (test/support may re-export it).",
};
const SANDBOX_IMPORTS_NOTHING_FROM_SRC = {
  regex: String.raw`^(\.\./)+src(/|$)`,
  message:
    "The sandbox stands in for the service: it imports nothing from src/ (declare wire shapes in sandbox/wire-types.ts).",
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "test-results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        Office: "readonly",
        OfficeRuntime: "readonly",
        CustomFunctions: "readonly",
        Excel: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Office globals outside src/office/: by name, on globalThis/window/self, or as any object's property
    // (`(globalThis as { Office?: … }).Office`). Tests are exempt: they install stand-ins for these globals.
    files: ["src/**/*.{ts,tsx}", "sandbox/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    ignores: ["src/office/**"],
    rules: {
      "no-restricted-globals": [
        "error",
        { globals: OFFICE_GLOBALS.map((name) => ({ name, message: OFFICE_ONLY })), checkGlobalObject: true },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: `MemberExpression[computed=false][property.name=/^(${OFFICE_GLOBALS.join("|")})$/]`,
          message: OFFICE_ONLY,
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", module: "writable", __dirname: "readonly", process: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  // ---- layers: imports (test/foundation/layers.test.ts shows a violation failing)
  {
    files: ["src/core/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [CORE_IMPORTS_NOTHING_OF_OURS] }] },
  },
  {
    files: ["src/api/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [API_IMPORTS_ONLY_CORE] }] },
  },
  {
    files: ["src/api/*/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [API_ROOM_IMPORTS_ONLY_CORE] }] },
  },
  {
    files: ["src/**"],
    ignores: ["src/core/**", "src/api/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [API_THROUGH_ITS_DOOR] }] },
  },
  {
    files: ["sandbox/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [SANDBOX_IMPORTS_NOTHING_FROM_SRC] }] },
  },
  {
    files: ["bench/**", "scripts/**", "harness/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [TOOLS_IMPORT_NOTHING_OF_TEST] }] },
  },
);
