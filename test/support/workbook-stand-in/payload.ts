export * from "../../../harness/workbook-stand-in/payload";
