export type Cell = string | number | boolean | null | undefined;
export declare function neutralise(text: string): string;
export declare function csvCell(value: Cell): string;
export declare function toCsv(records: readonly (readonly Cell[])[]): string;
export declare function toXlsx(records: readonly (readonly Cell[])[], options?: { sheetName?: string }): Promise<Uint8Array>;
