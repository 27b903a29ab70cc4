/**
 * The sandbox's asset catalog as the pane fetches it (over HTTP), for the
 * benchmarks that search it or pick their workbook's symbols from it.
 */
import type { AssetRecord } from "../src/core/domain";
import { DEMO_API_KEY, startSandbox } from "../sandbox/server";

/** The catalog of the sandbox at `baseUrl`. */
export async function fetchCatalog(baseUrl: string): Promise<AssetRecord[]> {
  const response = await fetch(`${baseUrl}/asset/symbols/?APIKey=${DEMO_API_KEY}`);
  return ((await response.json()) as { assets: AssetRecord[] }).assets;
}

/** The catalog of a sandbox of `assetCount` assets, started for it in this process and closed. */
export async function sandboxCatalog(assetCount: number): Promise<AssetRecord[]> {
  const sandbox = await startSandbox({ port: 0, quiet: true, assetCount });
  try {
    return await fetchCatalog(sandbox.url);
  } finally {
    await sandbox.close();
  }
}
