/**
 * The named core of the sandbox's asset catalog: the chains, tokens,
 * stablecoins and categories that examples, demos and tests refer to by name.
 * Identifiers never contain a dash, because a dash in a symbol means an
 * intersection (`usdc-eth`).
 *
 * Levels are rough mid-2025 orders of magnitude (see ANCHOR_DAY in curve.ts),
 * chosen so a demo looks like a market — Bitcoin the largest, Ethereum above
 * Solana, stablecoins near $1 with Tether ahead of USD Coin ahead of Dai. They
 * are not the assets' data: every series is synthetic.
 *
 * The titles that exist to prove the pane renders service text as text live in
 * hostile-fixtures.ts, and are served only when a test asks for them.
 */

export type CryptoKind = "chain" | "token" | "stablecoin" | "category";

export interface NamedCryptoAsset {
  kind: CryptoKind;
  symbol: string;
  platformId: string;
  title: string;
  aggregatorId: string | null;
  /** Activity scale (fees, users, transactions, TVL, volumes) relative to Ethereum (1). */
  size: number;
  /** Typical price in USD around the anchor date; omitted for chains without a native token and for categories. */
  price?: number;
  /** Typical circulating market cap in USD around the anchor date (with `price`, it fixes the circulating supply). */
  marketCap?: number;
  /** Chains: total stablecoin supply on the chain in USD around the anchor date. */
  stablecoins?: number;
  /** Typical daily levels of some activity metrics around the anchor date, where `size` alone would mislead (Solana's users, Ethereum's TVL). */
  levels?: ActivityLevels;
}

/** FEES and DEX_VOLUMES in USD a day, DAU and TXNS a day, TVL in USD. */
export type ActivityLevels = Partial<Record<"FEES" | "DAU" | "TXNS" | "TVL" | "DEX_VOLUMES", number>>;

const chain = (
  symbol: string,
  platformId: string,
  title: string,
  aggregatorId: string | null,
  size: number,
  stablecoins: number,
  price?: number,
  marketCap?: number,
): NamedCryptoAsset => ({
  kind: "chain",
  symbol,
  platformId,
  title,
  aggregatorId,
  size,
  stablecoins,
  price,
  marketCap,
  levels: CHAIN_LEVELS[symbol],
});

/** Rough mid-2025 daily activity per chain. */
const CHAIN_LEVELS: Record<string, ActivityLevels> = {
  btc: { FEES: 6e5, DAU: 7e5, TXNS: 4e5, TVL: 6e9, DEX_VOLUMES: 2e7 },
  eth: { FEES: 2e6, DAU: 4.5e5, TXNS: 1.4e6, TVL: 6.5e10, DEX_VOLUMES: 1.5e9 },
  sol: { FEES: 1.5e6, DAU: 3e6, TXNS: 7e7, TVL: 9e9, DEX_VOLUMES: 3e9 },
  bnb: { FEES: 6e5, DAU: 1.5e6, TXNS: 8e6, TVL: 6e9, DEX_VOLUMES: 2e9 },
  trx: { FEES: 1.8e6, DAU: 2.5e6, TXNS: 8e6, TVL: 5e9, DEX_VOLUMES: 5e7 },
  base: { FEES: 3e5, DAU: 1e6, TXNS: 1e7, TVL: 4e9, DEX_VOLUMES: 1e9 },
  arb: { FEES: 6e4, DAU: 3e5, TXNS: 2e6, TVL: 2.5e9, DEX_VOLUMES: 4e8 },
  op: { FEES: 2e4, DAU: 1e5, TXNS: 8e5, TVL: 6e8, DEX_VOLUMES: 5e7 },
  pol: { FEES: 3e4, DAU: 6e5, TXNS: 4e6, TVL: 9e8, DEX_VOLUMES: 1e8 },
  avax: { FEES: 3e4, DAU: 5e4, TXNS: 5e5, TVL: 1.5e9, DEX_VOLUMES: 1e8 },
  sui: { FEES: 5e4, DAU: 6e5, TXNS: 7e6, TVL: 1.8e9, DEX_VOLUMES: 2e8 },
  apt: { FEES: 5e3, DAU: 8e5, TXNS: 3e6, TVL: 1e9, DEX_VOLUMES: 6e7 },
  near: { FEES: 1e4, DAU: 1.5e6, TXNS: 6e6, TVL: 2e8, DEX_VOLUMES: 1e7 },
  ton: { FEES: 3e4, DAU: 3e5, TXNS: 3e6, TVL: 3e8, DEX_VOLUMES: 2e7 },
};
const token = (
  symbol: string,
  platformId: string,
  title: string,
  aggregatorId: string | null,
  size: number,
  price: number,
  marketCap: number,
): NamedCryptoAsset => ({ kind: "token", symbol, platformId, title, aggregatorId, size, price, marketCap });
/** `size` is the supply relative to Tether's (1). */
const stablecoin = (
  symbol: string,
  platformId: string,
  title: string,
  aggregatorId: string | null,
  size: number,
): NamedCryptoAsset => ({ kind: "stablecoin", symbol, platformId, title, aggregatorId, size, price: 1 });
const category = (symbol: string, title: string, size: number): NamedCryptoAsset => ({
  kind: "category",
  symbol,
  platformId: symbol,
  title,
  aggregatorId: null,
  size,
});

export const NAMED_CRYPTO_ASSETS: readonly NamedCryptoAsset[] = [
  //     symbol  platform_id  title  aggregator_id  activity  stablecoins on it  price  market cap
  chain("btc", "bitcoin", "Bitcoin", "bitcoin", 0.3, 8e7, 105_000, 2.1e12),
  chain("eth", "ethereum", "Ethereum", "ethereum", 1, 1.3e11, 3_000, 3.6e11),
  chain("sol", "solana", "Solana", "solana", 0.8, 1.1e10, 160, 8.5e10),
  chain("bnb", "bsc", "BNB Chain", "binancecoin", 0.35, 1e10, 650, 9.2e10),
  chain("trx", "tron", "Tron", "tron", 0.55, 7.5e10, 0.27, 2.6e10),
  chain("base", "base", "Base", null, 0.35, 4e9), // no native token: no PRICE or MC
  chain("arb", "arbitrum", "Arbitrum", "arbitrum", 0.12, 4e9, 0.45, 2.2e9),
  chain("op", "optimism", "Optimism", "optimism", 0.06, 7e8, 0.7, 1.2e9),
  chain("pol", "polygon", "Polygon", "polygon-ecosystem-token", 0.1, 2.5e9, 0.22, 2.3e9),
  chain("avax", "avalanche", "Avalanche", "avalanche-2", 0.05, 2e9, 22, 9.2e9),
  chain("sui", "sui", "Sui", "sui", 0.06, 1e9, 3.3, 1.1e10),
  chain("apt", "aptos", "Aptos", "aptos", 0.04, 1e9, 5, 3.2e9),
  chain("near", "near", "NEAR Protocol", "near", 0.05, 7e8, 2.5, 3.1e9),
  chain("ton", "ton", "TON", "the-open-network", 0.07, 1.2e9, 3.2, 8e9),

  token("uni", "uniswap", "Uniswap", "uniswap", 0.08, 8, 4.8e9),
  token("aave", "aave", "Aave", "aave", 0.05, 260, 3.9e9),
  token("link", "chainlink", "Chainlink", "chainlink", 0.03, 14, 9.2e9),
  token("mkr", "maker", "Maker", "maker", 0.03, 1_700, 1.5e9),
  token("ldo", "lido", "Lido DAO", "lido-dao", 0.04, 0.9, 8e8),
  token("crv", "curve", "Curve DAO", "curve-dao-token", 0.02, 0.6, 8e8),
  token("gmx", "gmx", "GMX", "gmx", 0.015, 14, 1.4e8),
  token("jup", "jupiter", "Jupiter", "jupiter-exchange-solana", 0.03, 0.5, 1.5e9),
  token("pendle", "pendle", "Pendle", "pendle", 0.01, 3.8, 6e8),
  token("hype", "hyperliquid", "Hyperliquid", "hyperliquid", 0.05, 38, 1.3e10),
  token("ena", "ethena", "Ethena", "ethena", 0.02, 0.3, 1.9e9),

  stablecoin("usdt", "tether", "Tether USD", "tether", 1),
  stablecoin("usdc", "usd_coin", "USD Coin", "usd-coin", 0.4),
  stablecoin("dai", "dai", "Dai", "dai", 0.045),
  stablecoin("usde", "ethena_usde", "Ethena USDe", "ethena-usde", 0.035),
  stablecoin("usds", "sky_dollar", "Sky Dollar", "usds", 0.028),
  stablecoin("fdusd", "first_digital_usd", "First Digital USD", "first-digital-usd", 0.01),
  stablecoin("pyusd", "paypal_usd", "PayPal USD", "paypal-usd", 0.006),

  category("defi", "DeFi", 0.6),
  category("dex", "Decentralized Exchanges", 0.4),
  category("lending", "Lending", 0.3),
  category("bridge", "Bridges", 0.12),
  category("lst", "Liquid Staking", 0.25),
  category("nft", "NFT Marketplaces", 0.05),
  category("gaming", "Gaming", 0.06),
  category("rwa", "Real-World Assets", 0.08),
  category("meme", "Memecoins", 0.2),
  category("l2", "Layer 2", 0.3),
];
