import { expect, it } from 'vitest';
import { documents, readDocument } from '../src/documents.ts';

/** The longest line of prose a document may hold: tables, code blocks and lines that hold a web address may run longer. */
const maxProseLine = 120;

/** The lines of prose of a document over `maxProseLine` characters, with their line numbers. */
function longProseLines(text: string): string[] {
  let inCode = false;
  return text.split('\n').flatMap((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
    if (inCode || line.trimStart().startsWith('|') || /https?:\/\//.test(line)) return [];
    return [...line].length > maxProseLine ? [`${index + 1}: ${line}`] : [];
  });
}

it.each(documents())(`no line of prose in %s is over ${maxProseLine} characters`, (document) => {
  expect(longProseLines(readDocument(document))).toEqual([]);
});
