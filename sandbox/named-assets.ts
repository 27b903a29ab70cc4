/**
 * The named core of the sandbox's asset catalog: the chains, tokens,
 * stablecoins and categories that examples, demos and tests refer to by name.
 * `size` scales every activity metric relative to Ethereum (1); `price` is the
 * typical 2018–2024 price level in USD. Identifiers never contain a dash,
 * because a dash in a symbol means an intersection (`usdc-eth`).
 *
 * A few tokens carry titles that look like HTML: the service's text must be
 * rendered as text, and the pane's tests need something to prove it with.
 */

export type CryptoKind = "chain" | "token" | "stablecoin" | "category";

export interface NamedCryptoAsset {
  kind: CryptoKind;
  symbol: string;
  platformId: string;
  title: string;
  aggregatorId: string | null;
  size: number;
  /** Omitted for chains without a native token and for categories. */
  price?: number;
}

const chain = (symbol: string, platformId: string, title: string, aggregatorId: string | null, size: number, price?: number): NamedCryptoAsset => ({ kind: "chain", symbol, platformId, title, aggregatorId, size, price });
const token = (symbol: string, platformId: string, title: string, aggregatorId: string | null, size: number, price: number): NamedCryptoAsset => ({ kind: "token", symbol, platformId, title, aggregatorId, size, price });
const stablecoin = (symbol: string, platformId: string, title: string, aggregatorId: string | null, size: number): NamedCryptoAsset => ({ kind: "stablecoin", symbol, platformId, title, aggregatorId, size, price: 1 });
const category = (symbol: string, title: string, size: number): NamedCryptoAsset => ({ kind: "category", symbol, platformId: symbol, title, aggregatorId: null, size });

export const NAMED_CRYPTO_ASSETS: readonly NamedCryptoAsset[] = [
  chain("eth", "ethereum", "Ethereum", "ethereum", 1, 1800),
  chain("btc", "bitcoin", "Bitcoin", "bitcoin", 0.6, 30000),
  chain("sol", "solana", "Solana", "solana", 0.5, 60),
  chain("arb", "arbitrum", "Arbitrum", "arbitrum", 0.15, 1.1),
  chain("base", "base", "Base", null, 0.2), // no native token: no PRICE or MC
  chain("pol", "polygon", "Polygon", "matic-network", 0.12, 0.8),
  chain("avax", "avalanche", "Avalanche", "avalanche-2", 0.1, 25),
  chain("bnb", "bsc", "BNB Chain", "binancecoin", 0.4, 300),
  chain("op", "optimism", "Optimism", "optimism", 0.1, 2),
  chain("trx", "tron", "Tron", "tron", 0.3, 0.1),
  chain("near", "near", "NEAR Protocol", "near", 0.05, 3),
  chain("sui", "sui", "Sui", "sui", 0.06, 1.2),
  chain("apt", "aptos", "Aptos", "aptos", 0.04, 8),
  chain("ton", "ton", "TON", "the-open-network", 0.05, 3),

  token("uni", "uniswap", "Uniswap", "uniswap", 0.08, 7),
  token("aave", "aave", "Aave", "aave", 0.05, 120),
  token("link", "chainlink", "Chainlink", "chainlink", 0.03, 12),
  token("mkr", "maker", "Maker", "maker", 0.03, 1200),
  token("ldo", "lido", "Lido DAO", "lido-dao", 0.04, 2),
  token("crv", "curve", "Curve DAO", "curve-dao-token", 0.02, 1),
  token("gmx", "gmx", "GMX", "gmx", 0.015, 40),
  token("jup", "jupiter", "Jupiter", "jupiter-exchange-solana", 0.03, 0.8),
  token("pendle", "pendle", "Pendle", "pendle", 0.01, 3),
  token("hype", "hyperliquid", "Hyperliquid", "hyperliquid", 0.05, 20),
  token("ena", "ethena", "Ethena", "ethena", 0.02, 0.6),
  token("xsstest", "xss_test_token", "<img src=x onerror=alert(1)>", null, 0.001, 0.05),
  token("boldtoken", "bold_token", "<b>Bold</b> Token", null, 0.001, 0.2),
  token("ampquote", "amp_quote_token", 'Fish & Chips "Quoted" <Token>', "fish-and-chips", 0.001, 0.01),
  token("unicodetoken", "unicode_token", "Ünïcødé ☃ Tökén", null, 0.001, 1.5),

  stablecoin("usdt", "tether", "Tether USD", "tether", 1),
  stablecoin("usdc", "usd_coin", "USD Coin", "usd-coin", 0.45),
  stablecoin("dai", "dai", "Dai", "dai", 0.06),
  stablecoin("usde", "ethena_usde", "Ethena USDe", "ethena-usde", 0.05),
  stablecoin("pyusd", "paypal_usd", "PayPal USD", "paypal-usd", 0.008),
  stablecoin("fdusd", "first_digital_usd", "First Digital USD", "first-digital-usd", 0.02),
  stablecoin("usds", "sky_dollar", "Sky Dollar", null, 0.04),

  category("defi", "DeFi", 0.8),
  category("dex", "Decentralized Exchanges", 0.5),
  category("lending", "Lending", 0.4),
  category("bridge", "Bridges", 0.2),
  category("lst", "Liquid Staking", 0.3),
  category("nft", "NFT Marketplaces", 0.1),
  category("gaming", "Gaming", 0.1),
  category("rwa", "Real-World Assets", 0.08),
  category("meme", "Memecoins", 0.15),
  category("l2", "Layer 2", 0.35),
];
