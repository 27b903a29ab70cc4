/**
 * The key and base URL, read before every batch and every catalog call so a
 * change applies on the next calculation. A changed key or base URL empties
 * the cache: answers may differ per account or service.
 */
import { ConfigError, redact } from "./errors";
import type { ResolvedSettings } from "./executor";
import { normalizeBaseUrl } from "./requests";
import type { SettingsSource } from "./types";

export class SettingsReader {
  private current?: ResolvedSettings;

  constructor(
    private readonly source: SettingsSource,
    private readonly onChange: (what: "base URL" | "API key") => void,
  ) {}

  /** The settings last read, without reading them again (undefined before the first read). */
  last(): ResolvedSettings | undefined {
    return this.current;
  }

  /** Reads and checks the settings; anything unusable is a ConfigError telling the user what to enter. */
  async read(): Promise<ResolvedSettings> {
    let raw: { apiKey?: string; baseUrl?: string };
    try {
      raw = await this.source();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError(redact(`Could not read the market-data settings: ${reason}`, this.current?.apiKey));
    }
    const baseUrl = normalizeBaseUrl(raw?.baseUrl);
    const apiKey = (raw?.apiKey ?? "").trim();
    if (!apiKey) throw new ConfigError("No API key is set. Enter your market-data API key in the Market Data pane.");
    const previous = this.current;
    this.current = { baseUrl, apiKey };
    if (previous && (previous.baseUrl !== baseUrl || previous.apiKey !== apiKey)) {
      this.onChange(previous.baseUrl !== baseUrl ? "base URL" : "API key");
    }
    return this.current;
  }
}
