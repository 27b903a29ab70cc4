// office-addin-mock imports office-addin-manifest only for manifest-driven mocks,
// which these tests do not use; its ESM-only dependencies cannot load under jest.
module.exports = {};
