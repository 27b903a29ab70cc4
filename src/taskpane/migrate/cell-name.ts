/** "Sheet1!B2", or "'My sheet'!B2" when the name needs quotes (as Excel writes it). */
export function cellName(sheet: string, address: string): string {
  const bare = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet);
  return `${bare ? sheet : `'${sheet.replace(/'/g, "''")}'`}!${address}`;
}

/** "1 formula", "2 formulas". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
