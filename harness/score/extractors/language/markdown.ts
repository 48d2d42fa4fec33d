/**
 * Markdown emphasis and code spans removed, so a pattern written for the
 * words matches however a model decorated them (`**Task 3**`, `` `Task 3` ``,
 * `_Task 3_`). Underscores inside words (`snake_case`) stay.
 */
export function withoutEmphasis(text: string): string {
  return text
    .replace(/`+/g, '')
    .replace(/\*\*|__/g, '')
    .replace(/(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])/g, '')
    .replace(/(?<![\w_])_(?=\S)|(?<=\S)_(?![\w_])/g, '');
}
