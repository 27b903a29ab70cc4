/** The gateway's cache lifetimes and timeouts (options.ts re-exports them), in nginx's time syntax ("1h", "5m", "90s"). */
export interface GatewayTimes {
  catalog: string;
  settled: string;
  recent: string;
  /** proxy_read_timeout (and cache-lock wait) for catalogs and insight feeds. */
  slowTimeout: string;
  timeout: string;
  /** How long the identity provider's keys are kept. */
  jwks: string;
  /** How long a refetch on an unknown kid is kept: at most one refetch per this time. */
  jwksRefresh: string;
}

export const DEFAULT_TIMES: GatewayTimes = {
  catalog: "1h",
  settled: "1d",
  recent: "5m",
  slowTimeout: "180s",
  timeout: "60s",
  jwks: "1h",
  jwksRefresh: "10s",
};
