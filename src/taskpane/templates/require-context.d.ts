/** webpack's `require.context` (https://webpack.js.org/guides/dependency-management/#requirecontext), which @types/node's `require` lacks. */
declare namespace NodeJS {
  interface Require {
    context(
      directory: string,
      useSubdirectories: boolean,
      pattern: RegExp,
    ): { keys(): string[]; (key: string): unknown };
  }
}
