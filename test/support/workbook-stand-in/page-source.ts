export * from "../../../harness/workbook-stand-in/page-source";
