import { sanitizeTitle } from '../../domain/title.ts';
import { badRequest } from '../../errors.ts';

/** A folder name as stored: sanitised like a title, and refused when nothing is left. */
export function folderName(raw: string): string {
  const name = sanitizeTitle(raw);
  if (name === '') throw badRequest('name must not be empty');
  return name;
}
