/**
 * MD.ASSET for the chosen asset: the card's formula to insert or copy (=A1.Price then reads it), or, ticked, its
 * property/value table. Microsoft Learn, "Excel data types core concepts" (Entity values): where the requirements
 * for data types are not met, an entity "displays as a #VALUE! error in the Excel UI". A workbook that Excel 2021
 * or older opens therefore shows each card cell as #VALUE! until its formulas calculate there (Refresh All), when
 * MD.ASSET spills the table instead; table=true gives that table everywhere.
 *
 * The preview shows the card as that property/value table, whichever is chosen, whole (a card is a screenful): the
 * function's own code (assetCard, shapeAssetTable) on the shared client, as the cell runs it.
 */
import { Caption1, Checkbox } from "@fluentui/react-components";
import { useMemo, useState } from "react";
import { shapeAssetTable } from "../../../core/asset-card";
import { assetCard } from "../../../functions/asset";
import { FormulaActions } from "../../shared/formula-actions";
import { assetFormula } from "../formula-text";
import { FunctionPreview } from "./function-preview";
import type { PreviewCall } from "./preview-outcome";

export function AssetCardBuilder({ symbol }: { symbol: string }) {
  const [table, setTable] = useState(false);
  const formula = assetFormula(symbol, table);
  // The card either way (table=true changes the cell's shape, not what it holds); a second run is the client's cache.
  const call = useMemo(
    (): PreviewCall => ({ key: formula, run: async (ctx) => shapeAssetTable(await assetCard(ctx, { symbol })) }),
    [formula, symbol],
  );
  return (
    <div data-testid="asset-card-builder">
      <Caption1 block>
        Excel 2021 and older have no cards: there a card cell shows #VALUE! until Data › Refresh All, which lays it out
        as a property/value table.
      </Caption1>
      <Checkbox
        label="A property/value table instead of a card (the same in every Excel)"
        checked={table}
        onChange={(_, data) => setTable(data.checked === true)}
      />
      <FunctionPreview call={call} headerRow={false} rows={Infinity} />
      <FormulaActions formula={formula} subject={`${symbol} ${table ? "table" : "card"}`} />
    </div>
  );
}
