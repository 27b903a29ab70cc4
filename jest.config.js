/**
 * One jest run covers every layer. Test files pick their environment with a
 * `@jest-environment` docblock (jsdom for components); the default is node,
 * because most tests talk real HTTP to the sandbox or load the built bundle.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts", "**/*.test.tsx"],
  transform: {
    "^.+\\.tsx?$": ["ts-jest", { tsconfig: "tsconfig.test.json" }],
  },
  moduleNameMapper: {
    // office-addin-mock pulls in office-addin-manifest, whose dependencies are ESM-only.
    "^office-addin-manifest$": "<rootDir>/test/support/office-addin-manifest-stub.js",
    "\\.css$": "<rootDir>/test/support/style-stub.js",
  },
  // A React act() warning or a Node warning (MaxListenersExceededWarning…) fails the test that printed it.
  setupFilesAfterEnv: ["<rootDir>/test/support/fail-on-warnings.ts"],
  testTimeout: 30000,
  maxWorkers: 2,
};
