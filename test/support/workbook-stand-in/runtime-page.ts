export * from "../../../harness/workbook-stand-in/runtime-page";
