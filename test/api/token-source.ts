/** A stand-in for the client's access token source (ClientOptions.accessToken), shared by the sign-in tests. */
import type { AccessTokenSource } from "../../src/api/types";

/** A token source that hands out the given tokens in order (a renewal takes the next), recording how it was asked. */
export function tokens(...issued: (string | null)[]) {
  const asked: { forceRefresh: boolean; rejected?: string }[] = [];
  let next = 0;
  const source: AccessTokenSource = async (options) => {
    asked.push(options);
    if (options.forceRefresh) next += 1;
    return issued[Math.min(next, issued.length - 1)] ?? null;
  };
  return { source, asked };
}
