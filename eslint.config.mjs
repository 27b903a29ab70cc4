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
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable", __dirname: "readonly", process: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
