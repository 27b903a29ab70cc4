/** The workbook stand-in lives in harness/workbook-stand-in/ (the dev build's demo workbook runs it too); the tests import it from here. */
export * from "../../../harness/workbook-stand-in";
