import { ComputerToolError } from './errors.js';

/**
 * Turns an error of a file operation into a `ComputerToolError` the model can act on
 * ("notes.md does not exist"); `ComputerToolError`s pass through unchanged.
 */
export function fsErrorToToolError(error: unknown, shownPath: string): ComputerToolError {
  if (error instanceof ComputerToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new ComputerToolError('file_not_found', `${shownPath} does not exist. Check the path with list_files.`, { cause: error });
    case 'EISDIR':
      return new ComputerToolError('path_is_folder', `${shownPath} is a folder, not a file. Use list_files to see what it holds.`, { cause: error });
    case 'ENOTDIR':
      return new ComputerToolError('path_not_folder', `A part of ${shownPath} is a file, not a folder.`, { cause: error });
    case 'EACCES':
    case 'EPERM':
      return new ComputerToolError('permission_denied', `Permission denied for ${shownPath}.`, { cause: error });
    case 'ENXIO':
      return new ComputerToolError('not_a_file', `${shownPath} is not a regular file.`, { cause: error });
    case 'ENOSPC':
      return new ComputerToolError('disk_full', `No space left on the device while writing ${shownPath}.`, { cause: error });
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return new ComputerToolError('file_operation_failed', `The file operation on ${shownPath} failed: ${message}`, { cause: error });
    }
  }
}
