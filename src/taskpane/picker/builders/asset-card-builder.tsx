/** MD.ASSET for the chosen asset: no fields, the card's formula to insert or copy (=A1.Price then reads it). */
import { FormulaActions } from "../../shared/formula-actions";
import { assetFormula } from "../formula-text";

export function AssetCardBuilder({ symbol }: { symbol: string }) {
  return (
    <div data-testid="asset-card-builder">
      <FormulaActions formula={assetFormula(symbol)} subject={`${symbol} card`} />
    </div>
  );
}
