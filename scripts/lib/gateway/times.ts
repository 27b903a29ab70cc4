/** The gateway's cache lifetimes and timeouts (options.ts re-exports them), in nginx's time syntax ("1h", "5m", "90s"). */
export interface GatewayTimes {
  catalog: string;
  settled: string;
  recent: string;
  /** proxy_read_timeout (and cache-lock wait) for catalogs and insight feeds. */
  slowTimeout: string;
  timeout: string;
  /** How long the identity provider's keys are kept (at most 15 minutes); a successful refetch replaces them. */
  jwks: string;
  /** How long any answer of the provider is kept: it is asked at most once per this time. */
  jwksRefresh: string;
  /** How long past `jwks` the last good keys are used while the provider fails or answers nonsense. */
  jwksGrace: string;
  /** How long a verified token is kept by the sign-in cache at most (never past its exp; at most a minute). */
  signedIn: string;
}

export const DEFAULT_TIMES: GatewayTimes = {
  catalog: "1h",
  settled: "1d",
  recent: "5m",
  slowTimeout: "180s",
  timeout: "60s",
  jwks: "10m",
  jwksRefresh: "10s",
  jwksGrace: "30m",
  signedIn: "60s",
};
