/** A user's search text inside LIKE/ILIKE patterns: `%`, `_` and `\` match themselves. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%` for ILIKE: the user's text matched anywhere, its wildcards taken literally. */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;
