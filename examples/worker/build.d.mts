/** Types for build.mjs (the test imports it). */
export declare function buildWorker(outfile?: string, options?: { minify?: boolean }): Promise<{ outfile: string; bytes: number }>;
