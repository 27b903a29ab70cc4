/** The workbook stand-in: a recorded workbook behind the subset of Office.js the add-in uses (see install.ts). */
export * from "./install";
