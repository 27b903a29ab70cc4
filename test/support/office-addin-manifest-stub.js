// office-addin-mock imports office-addin-manifest for its OfficeApp enum; the
// package's entry point pulls in ESM-only dependencies that jest cannot load,
// so only the dependency-free module that defines the enum is mapped in.
module.exports = require("office-addin-manifest/lib/officeApp");
