/** retie's version, kept equal to deno.json's "version" (a test checks). */
export const VERSION = "0.1.0";
