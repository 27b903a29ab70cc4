/**
 * Tokens whose titles look like markup, for the tests that prove the pane and
 * the functions treat the service's text as text. They are not part of the
 * demo: the catalog carries them only when a test asks for them
 * (`startSandbox({ hostileFixtures: true })`, `npm run sandbox -- --hostile-fixtures`).
 */
import type { NamedCryptoAsset } from "./named-assets";

const fixture = (
  symbol: string,
  platformId: string,
  title: string,
  aggregatorId: string | null,
  price: number,
): NamedCryptoAsset => ({
  kind: "token",
  symbol,
  platformId,
  title,
  aggregatorId,
  size: 0.001,
  price,
  marketCap: 2e6,
});

export const HOSTILE_FIXTURE_ASSETS: readonly NamedCryptoAsset[] = [
  fixture("xsstest", "xss_test_token", "<img src=x onerror=alert(1)>", null, 0.05),
  fixture("boldtoken", "bold_token", "<b>Bold</b> Token", null, 0.2),
  fixture("ampquote", "amp_quote_token", 'Fish & Chips "Quoted" <Token>', "fish-and-chips", 0.01),
  fixture("unicodetoken", "unicode_token", "Ünïcødé ☃ Tökén", null, 1.5),
];
