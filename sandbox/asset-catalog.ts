/**
 * The asset catalog (interface 2.6): the named core set and the listed
 * companies — what `npm start` serves — then, only when a test asks, the
 * hostile-title fixtures and generated filler tokens up to a configured size so
 * the picker can be tested against tens of thousands of rows. Records are
 * built once per server; a 20,000-row catalog takes a few milliseconds.
 */
import type { AssetRecordWire } from "./wire-types";
import { COMPANIES, type Company } from "./companies";
import { HOSTILE_FIXTURE_ASSETS } from "./hostile-fixtures";
import { type ActivityLevels, NAMED_CRYPTO_ASSETS, type CryptoKind, type NamedCryptoAsset } from "./named-assets";
import { between, hashOf, logBetween, mix, unit } from "./rng";

export type AssetKind = CryptoKind | "equity";

export interface CatalogEntry {
  record: AssetRecordWire;
  kind: AssetKind;
  /** Activity scale relative to Ethereum (crypto only). */
  size: number;
  /** Typical price level; absent when the asset has no market price. */
  price?: number;
  /** Typical circulating market cap (named crypto assets). */
  marketCap?: number;
  /** Chains: stablecoin supply on the chain, USD. */
  stablecoins?: number;
  /** Typical levels of some activity metrics (named chains). */
  levels?: ActivityLevels;
  company?: Company;
  /** A generated filler token (not part of the demo set, not in the insight feeds). */
  filler?: boolean;
}

/** The catalog served by default: the named crypto assets and the companies, no fixtures, no filler. */
export const DEFAULT_ASSET_COUNT = NAMED_CRYPTO_ASSETS.length + COMPANIES.length;

export interface CatalogOptions {
  /** Add the hostile-title tokens of hostile-fixtures.ts (tests of text rendering). Default false. */
  hostileFixtures?: boolean;
}
const FILLER_SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "zen",
  "tor",
  "vex",
  "qua",
  "ri",
  "sol",
  "no",
  "va",
  "by",
  "tha",
  "ur",
  "el",
  "dra",
  "fi",
  "xo",
  "pe",
  "lu",
  "gar",
  "mon",
  "sy",
  "ter",
];
const FILLER_SUFFIXES = [
  "Protocol",
  "Finance",
  "Network",
  "Token",
  "Swap",
  "DAO",
  "Labs",
  "Chain",
  "Markets",
  "Bridge",
  "Yield",
  "Exchange",
];

function colourFromHash(h: number): string {
  return `#${(h & 0xffffff).toString(16).padStart(6, "0").toUpperCase()}`;
}

export function colourOf(seed: number, id: string): string {
  return colourFromHash(hashOf(seed, "colour", id));
}

/** Filler token n (1-based): symbol `sbx00001`, platform_id `sandbox_token_00001`. */
export function fillerSymbol(n: number): string {
  return `sbx${String(n).padStart(5, "0")}`;
}

/** `fillerSeed` is hashOf(seed, "filler"); everything else derives from it by cheap mixing. */
function fillerEntry(fillerSeed: number, n: number): CatalogEntry {
  const digits = String(n).padStart(5, "0");
  const h = mix(fillerSeed, n);
  const syllables = 2 + (mix(h, 1) % 2);
  let name = "";
  for (let i = 0; i < syllables; i++) name += FILLER_SYLLABLES[mix(h, 10 + i) % FILLER_SYLLABLES.length];
  const title = `${name[0].toUpperCase()}${name.slice(1)} ${FILLER_SUFFIXES[mix(h, 20) % FILLER_SUFFIXES.length]}`;
  return {
    kind: "token",
    filler: true,
    size: logBetween(mix(h, 30), 1e-5, 5e-3),
    price: logBetween(mix(h, 31), 0.0005, 80),
    record: {
      platform_id: `sandbox_token_${digits}`,
      symbol: `sbx${digits}`,
      // Many assets have no id at an external price aggregator.
      aggregator_id: unit(mix(h, 40)) < 0.4 ? null : `sandbox-${name}-${digits}`,
      title,
      color: colourFromHash(mix(h, 41)),
    },
  };
}

export class AssetCatalog {
  readonly entries: readonly CatalogEntry[];
  private readonly byName = new Map<string, CatalogEntry>();
  private json?: string;

  /**
   * `assetCount` is the catalog's size: filler tokens are added after the named
   * set (and the fixtures, when asked for) until it is reached. Default: no filler.
   */
  constructor(seed: number, assetCount?: number, options: CatalogOptions = {}) {
    if (assetCount !== undefined && (!Number.isInteger(assetCount) || assetCount < 0))
      throw new RangeError(`assetCount must be a whole number ≥ 0, got ${assetCount}`);
    const named: NamedCryptoAsset[] = [
      ...NAMED_CRYPTO_ASSETS,
      ...(options.hostileFixtures ? HOSTILE_FIXTURE_ASSETS : []),
    ];
    const entries: CatalogEntry[] = named.map((asset) => ({
      kind: asset.kind,
      size: asset.size,
      price: asset.price,
      marketCap: asset.marketCap,
      stablecoins: asset.stablecoins,
      levels: asset.levels,
      record: {
        platform_id: asset.platformId,
        symbol: asset.symbol,
        aggregator_id: asset.aggregatorId,
        title: asset.title,
        color: colourOf(seed, asset.platformId),
      },
    }));
    for (const company of COMPANIES) {
      entries.push({
        kind: "equity",
        size: between(hashOf(seed, "equity-size", company.ticker), 0.01, 0.1),
        price: company.price,
        company,
        record: {
          platform_id: company.platformId,
          symbol: `eq-${company.ticker}`,
          aggregator_id: null,
          title: company.title,
          color: colourOf(seed, company.platformId),
        },
      });
    }
    const fillerSeed = hashOf(seed, "filler");
    for (let n = 1; entries.length < (assetCount ?? 0); n++) entries.push(fillerEntry(fillerSeed, n));
    this.entries = entries;
    for (const entry of entries) {
      this.byName.set(entry.record.symbol, entry);
      this.byName.set(entry.record.platform_id, entry);
    }
  }

  /** By catalog `symbol` or `platform_id` (lowercase). */
  find(name: string): CatalogEntry | undefined {
    return this.byName.get(name);
  }

  /** The `/asset/symbols/` body, serialised once. */
  body(): string {
    this.json ??= JSON.stringify({ assets: this.entries.map((entry) => entry.record) });
    return this.json;
  }
}
