/**
 * MD.ASSET's card as an Excel entity value.
 *
 * Microsoft Learn, "Use data types with custom functions in Excel"
 * (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts):
 * a custom function whose result is typed `any` (functions.json
 * `allowCustomDataForDataTypeAny`) may return an entity; and "Excel JavaScript
 * API data types: entity values"
 * (learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-entity-card):
 * `{ type: "Entity", text, properties, layouts: { card: { title, sections } },
 * provider }` — the cell shows `text`, the card lays the properties out in
 * sections (`layout: "List"`), a property's `propertyMetadata.sublabel` is the
 * small line under it, and `excludeFrom.cardView` keeps a property off the
 * card while `=A1.[Price date]` still reads it. The shapes are
 * Excel.EntityCellValue, Excel.CardLayout and Excel.CellValuePropertyMetadata
 * of @types/office-js, all ExcelApi 1.16; entity properties that are numbers
 * carry their format as the add-in's other cells do (cell-values.ts:
 * FormattedNumber at 1.16, Double with numberFormat from 1.19). A host
 * without data types in custom functions gets the card as a two-column table
 * (shapeAssetTable) instead: that decision is dataTypeSupport's.
 */
import { ASSET_PROVIDER, type AssetCard, dateProperty, identityRows } from "../../core/asset-card";
import { DATE_FORMAT, type NumberFormat } from "../../core/number-format";
import { isoToSerialIn } from "../../core/excel-date";
import type { DataTypeSupport } from "./cell-values";
import type { Provenance } from "../../core/provenance";
import { provenanceProperties, showsProperties, type ValueProperties } from "./value-properties";

interface PropertyMetadata {
  sublabel?: string;
  excludeFrom?: { cardView?: boolean; autoComplete?: boolean };
}

export type EntityProperty =
  | { type: "String"; basicValue: string; propertyMetadata?: PropertyMetadata }
  | {
      type: "Double" | "FormattedNumber";
      basicValue: number;
      numberFormat?: NumberFormat;
      propertyMetadata?: PropertyMetadata;
      /** The value's provenance (value-properties.ts): a basic value with properties, nested in the entity. */
      properties?: ValueProperties;
    };

export interface EntityValue {
  type: "Entity";
  text: string;
  properties: Record<string, EntityProperty>;
  layouts: {
    card: {
      title: { property: string };
      subTitle?: { property: string };
      sections: { layout: "List"; title: string; properties: string[] }[];
    };
  };
  provider: { description: string };
}

function numberProperty(
  value: number,
  format: NumberFormat | null,
  support: Exclude<DataTypeSupport, "none">,
  metadata?: PropertyMetadata,
  provenance?: Provenance,
): EntityProperty {
  // A number without a format is a plain Double (ExcelApi 1.16); a formatted one takes the host's formatted type.
  const type = format === null || support === "double" ? "Double" : "FormattedNumber";
  return {
    type,
    basicValue: value,
    ...(format === null ? {} : { numberFormat: format }),
    ...(metadata ? { propertyMetadata: metadata } : {}),
    ...(provenance && showsProperties(support) ? { properties: provenanceProperties(provenance) } : {}),
  };
}

export function toEntityValue(card: AssetCard, support: Exclude<DataTypeSupport, "none">): EntityValue {
  const properties: Record<string, EntityProperty> = {};
  for (const [name, value] of identityRows(card)) if (value) properties[name] = { type: "String", basicValue: value };
  properties["As of"] = numberProperty(isoToSerialIn(card.asOf, card.dateSystem), DATE_FORMAT, support);
  // Headline sections first, in the card's order, then what the asset is.
  const sections: EntityValue["layouts"]["card"]["sections"] = [];
  for (const section of card.sections) {
    for (const fact of section.facts) {
      properties[fact.name] = numberProperty(
        fact.value,
        fact.format,
        support,
        { sublabel: fact.note },
        fact.provenance,
      );
      properties[dateProperty(fact.name)] = numberProperty(
        isoToSerialIn(fact.date, card.dateSystem),
        DATE_FORMAT,
        support,
        { excludeFrom: { cardView: true } },
      );
    }
    sections.push({ layout: "List", title: section.title, properties: section.facts.map((fact) => fact.name) });
  }
  const about = ["Kind", "Symbol", "Colour", "As of"].filter((name) => name in properties);
  sections.push({ layout: "List", title: "About", properties: about });
  return {
    type: "Entity",
    text: card.title,
    properties,
    layouts: {
      card: {
        title: { property: "Name" },
        ...(card.kind ? { subTitle: { property: "Kind" } } : {}),
        sections,
      },
    },
    provider: { description: ASSET_PROVIDER },
  };
}
