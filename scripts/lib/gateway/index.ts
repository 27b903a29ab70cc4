/**
 * The team gateway's library, one job per file (README.md, "Layout"):
 *   options.ts            what a start takes and gives back; lifetimes, the body cap, where the templates are
 *   identity-settings.ts  sign-in: each identity setting's option, check, template values and /_gateway answer
 *   exposure.ts           who can reach it: loopback, host names, firm mode off this machine
 *   upstream.ts           the service's address and the TLS lines for it
 *   series-calendar.ts    which endDates are settled (series-calendar.conf)
 *   pane-csp.ts           the pane's Content-Security-Policy header
 *   firm-key.ts           the firm key: checked at start, written as the key include
 *   config-writer.ts      fills deploy/nginx/'s templates (TypeScript only fills in values)
 *   nginx-install.ts      finding and installing nginx and njs
 *   state-dir.ts          the run dir, the state dir (refused when another user could change it), the workers' account
 *   runner.ts             starts and stops nginx
 *   tier.ts               the two-tier layout: an edge or a cache node, the hop's shared secret
 */
export { checkExposure, serverNamesFor } from "./exposure";
export { isLoopback } from "./loopback";
export { renderGatewayConfig, type GatewayConfigInput, type GatewayFiles } from "./config-writer";
export { checkFirmKey, keyCheckJson, keyInclude, type FirmKeyCheck } from "./firm-key";
export {
  checkIdentity,
  discoverJwksUri,
  gatewayAnswer,
  IDENTITY_OPTIONS,
  identityArgs,
  identityFromArgs,
  identityHelp,
  identityUsage,
  signInAnswer,
  type CheckedIdentity,
  type IdentitySettings,
} from "./identity-settings";
export { ensureNginx, findNginx, findNjsModule, INSTALL_HINT } from "./nginx-install";
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMES,
  defaultStateDir,
  ROOT,
  TEMPLATE_DIR,
  type GatewayHandle,
  type GatewayOptions,
  type GatewayTimes,
  type KeyMode,
} from "./options";
export { gatewayCsp, metaCspFromDist, paneCspFromDist, paneFrameRewrite, signInOrigin } from "./pane-csp";
export { freePort, GATEWAY_PORT_USER, startGateway } from "./runner";
export { beforeDatePattern, seriesCalendar, SETTLED_AFTER_DAYS } from "./series-calendar";
export { parseUpstream, type Upstream } from "./upstream";
export {
  CACHE_NODE_CSP,
  CACHE_TIER_HOST,
  HOP_HEADER,
  HOP_INCLUDE,
  hopSecretInclude,
  parseCacheNode,
  readHopSecrets,
  tierRate,
  tierServerNames,
  type GatewayTier,
} from "./tier";
