/**
 * Values fixed at build time by webpack's DefinePlugin (see webpack.config.js).
 * Under jest or tsx nothing is defined, so each falls back to a development value.
 */
declare const __MD_VERSION__: string | undefined;
declare const __MD_DEFAULT_BASE_URL__: string | undefined;
declare const __MD_DEFAULT_API_KEY__: string | undefined;
declare const __MD_BUILD_TARGET__: string | undefined;

export const BUILD_INFO = {
  version: typeof __MD_VERSION__ === "string" ? __MD_VERSION__ : "0.0.0-dev",
  /** The service address used until the user sets `md.baseUrl`. */
  defaultBaseUrl: typeof __MD_DEFAULT_BASE_URL__ === "string" ? __MD_DEFAULT_BASE_URL__ : "",
  /** The sandbox's demo key in development/test builds; empty in production. */
  defaultApiKey: typeof __MD_DEFAULT_API_KEY__ === "string" ? __MD_DEFAULT_API_KEY__ : "",
  target: typeof __MD_BUILD_TARGET__ === "string" ? __MD_BUILD_TARGET__ : "development",
} as const;
