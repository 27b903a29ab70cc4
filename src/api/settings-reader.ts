/**
 * The key and base URL, read before every batch and every catalog call so a
 * change applies on the next calculation. A changed key, base URL or person
 * asking (`who`: another account signed in) empties the cache (answers may
 * differ per account or service, and one person's are not another's) and starts a new
 * generation: an answer to a request sent under an older one is neither
 * cached nor shown, but asked again (`changedSince`).
 */
import { ConfigError, redact } from "./errors";
import type { ResolvedSettings } from "./http/executor";
import { authorisationOf } from "./http/request-auth";
import { normalizeBaseUrl } from "./http/requests";
import type { ClientSettings, SettingsSource } from "./types";

export class SettingsReader {
  private current?: ResolvedSettings;
  private generation = 0;

  constructor(
    private readonly source: SettingsSource,
    private readonly onChange: (what: "base URL" | "API key" | "account") => void,
  ) {}

  /** The settings last read, without reading them again (undefined before the first read). */
  last(): ResolvedSettings | undefined {
    return this.current;
  }

  /** Reads and checks the settings; anything unusable is a ConfigError telling the user what to enter. */
  async read(): Promise<ResolvedSettings> {
    let raw: Partial<ClientSettings> | undefined;
    try {
      raw = await this.source();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError(redact(`Could not read the market-data settings: ${reason}`, this.current?.apiKey));
    }
    const baseUrl = normalizeBaseUrl(raw?.baseUrl);
    const apiKey = (raw?.apiKey ?? "").trim();
    // A gateway holding the firm's key adds it upstream: the add-in sends none and asks for none.
    if (!apiKey && !raw?.keyManagedByGateway)
      throw new ConfigError("No API key is set. Enter your market-data API key in the Market Data pane.");
    const auth = authorisationOf(raw);
    const who = raw?.who ?? null;
    const previous = this.current;
    if (previous && previous.baseUrl === baseUrl && previous.apiKey === apiKey && previous.who === who) {
      // The gateway starting or stopping to ask for sign-in changes who may ask, not the answers: the cache stays.
      if (previous.auth?.key === auth.key && previous.auth.user === auth.user) return previous;
      return (this.current = { ...previous, auth });
    }
    if (previous) this.generation += 1;
    this.current = { baseUrl, apiKey, generation: this.generation, auth, who };
    if (previous)
      this.onChange(previous.baseUrl !== baseUrl ? "base URL" : previous.apiKey !== apiKey ? "API key" : "account");
    return this.current;
  }

  /**
   * Reads the settings again after an answer arrived: the new settings when
   * the key or base URL changed since `used` was read (the answer belongs to
   * the old ones and must be asked again), else undefined.
   */
  async changedSince(used: ResolvedSettings): Promise<ResolvedSettings | undefined> {
    const now = await this.read();
    return now.generation === used.generation ? undefined : now;
  }
}
