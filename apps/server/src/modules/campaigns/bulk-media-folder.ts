import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../http/app-error.js';

/**
 * The places a server keeps to itself: its DATA_DIR and, inside or outside it, the database's files, the secrets
 * file, the media store and the uploads spool. No bulk media folder may be one of them, hold one or lie in one,
 * and no file sent by path may land in one (issue 31 item 4).
 */
export interface ServerPlaces {
  dataDir: string;
  /** Folders and files under DATA_DIR (or elsewhere) that are the server's own. */
  owned: string[];
}

/** Refused with everything inside them: the system's own folders. */
const SYSTEM_FOLDERS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/sys',
  '/usr',
  '/var/backups',
  '/var/cache',
  '/var/lib',
  '/var/log',
  '/var/mail',
  '/var/run',
  '/var/spool',
];
/** Refused as themselves (far too wide), though a folder inside them may be fine: `/srv/campaigns`, `/home/desk/media`. */
const WIDE_FOLDERS = ['/', '/home', '/media', '/mnt', '/opt', '/srv', '/tmp', '/var', '/var/tmp'];

/** Whether `inner` is `outer` or inside it (both absolute and resolved). */
function within(outer: string, inner: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The real path of `target` (symlinks resolved) even when it does not exist yet: the real path of its nearest
 * existing ancestor, followed by the rest.
 */
async function realPathOf(target: string): Promise<string> {
  const absolute = path.resolve(target);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await realpath(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** What the web translates (`validation.issues.<code>`): the message itself has details in English. */
type PathIssue = { code: string; params?: Record<string, string | number> };

function protectedPath(message: string, field: string, issue: PathIssue): AppError {
  return new AppError('ERR_PROTECTED_PATH', `${field}: ${message}`, { issues: [{ path: field, message, ...issue }] });
}

function pathError(message: string, issue: PathIssue): AppError {
  return new AppError('ERR_VALIDATION', `path: ${message}`, { issues: [{ path: 'path', message, ...issue }] });
}

/** A file of the bulk media folder, checked: its real path, and how to name it to the person who asked. */
export interface BulkMediaFile {
  real: string;
  /** The path as given, for messages (never the folder's absolute path). */
  shown: string;
}

/**
 * The bulk media folder of /ZDGMedia2 (setting bulkMediaFolder, DATA_DIR/bulk-media when empty): where it is, its
 * label (what attendants see: its name, never the server's absolute path), and the checks that keep the server's
 * own files out of it, on the setting and again on every file, after symlinks.
 */
export class BulkMediaFolder {
  private readonly defaultFolder: string;

  constructor(
    private readonly setting: () => Promise<string>,
    private readonly places: ServerPlaces,
  ) {
    this.defaultFolder = path.join(places.dataDir, 'bulk-media');
  }

  /** The folder's absolute path (for admins and the server only). */
  async path(): Promise<string> {
    return (await this.setting()) || this.defaultFolder;
  }

  /** What attendants are shown: the folder's own name. */
  async label(): Promise<string> {
    return path.basename(await this.path()) || '/';
  }

  /**
   * Why `folder` cannot be the bulk media folder, or null: `/`, a system folder, DATA_DIR or a folder above it,
   * one holding, equal to or inside the database, the secrets, the media store or the uploads spool (after
   * symlinks). A folder inside DATA_DIR apart from those (the default DATA_DIR/bulk-media) is fine.
   */
  async refusal(folder: string): Promise<string | null> {
    if (!path.isAbsolute(folder)) return 'Must be an absolute path';
    const real = await realPathOf(folder);
    const dataDir = await realPathOf(this.places.dataDir);
    if (within(real, dataDir)) return 'The server keeps its data there (DATA_DIR): choose a folder of its own';
    for (const owned of this.places.owned) {
      const place = await realPathOf(owned);
      if (within(real, place) || within(place, real)) return 'The server keeps its own files there: choose a folder of its own';
    }
    if (within(dataDir, real)) return null;
    if (WIDE_FOLDERS.includes(real)) return 'A folder this wide cannot be shared: choose a folder of its own';
    if (SYSTEM_FOLDERS.some((system) => within(system, real))) return 'A system folder cannot be shared: choose a folder of its own';
    return null;
  }

  /**
   * The regular files of the folder, named relative to it, sorted, at most `max` (symlinks and hidden entries
   * left out; four levels deep at most); none when the folder is missing or refused.
   */
  async files(max: number): Promise<string[]> {
    const folder = await this.path();
    if (await this.refusal(folder)) return [];
    const found: string[] = [];
    const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (found.length >= max) return;
        if (entry.name.startsWith('.')) continue;
        const name = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isFile()) found.push(name);
        else if (entry.isDirectory() && depth < 4) await walk(path.join(dir, entry.name), name, depth + 1);
      }
    };
    await walk(folder, '', 1);
    return found;
  }

  /** The setting's check (PUT /api/settings/bulkMediaFolder): 400 ERR_PROTECTED_PATH for a folder `refusal` refuses. */
  async checkSetting(value: string): Promise<void> {
    if (value === '') return;
    const refusal = await this.refusal(value);
    if (refusal) throw protectedPath(refusal, 'value', { code: 'folderRefused' });
  }

  /**
   * Checks a `mediaPath` campaign's file (/ZDGMedia2): a path inside the bulk media folder, relative to it or
   * absolute, naming a regular file of at most `maxBytes` whose real path (symlinks followed) is still inside the
   * folder and on none of the server's own places. The folder itself is checked again (a setting stored before
   * this check, a symlink changed since). ERR_VALIDATION or ERR_PROTECTED_PATH (field `path`) otherwise; the
   * messages name the folder by its label.
   */
  async checkFile(file: string, maxBytes: number): Promise<BulkMediaFile> {
    const folder = await this.path();
    const label = await this.label();
    const refusal = await this.refusal(folder);
    if (refusal) throw protectedPath(`The bulk media folder cannot be used: an admin chooses another under Settings. ${refusal}`, 'path', { code: 'mediaFolderUnusable' });
    let realFolder: string;
    try {
      realFolder = await realpath(folder);
    } catch {
      throw pathError(`The bulk media folder (${label}) does not exist yet: an admin creates it or chooses another under Settings`, { code: 'mediaFolderMissing', params: { folder: label } });
    }
    const given = path.resolve(folder, file);
    const inside = (outer: string, inner: string) => within(outer, inner) && outer !== inner;
    if (!inside(path.resolve(folder), given) && !inside(realFolder, given)) {
      throw pathError(`Only files inside the bulk media folder (${label}) can be sent`, { code: 'outsideMediaFolder', params: { folder: label } });
    }
    let real: string;
    try {
      real = await realpath(given);
    } catch {
      throw pathError(`No file at ${file}`, { code: 'noSuchFile', params: { file, folder: label } });
    }
    if (!inside(realFolder, real)) throw pathError(`${file} leads outside the bulk media folder (${label})`, { code: 'outsideMediaFolder', params: { folder: label } });
    for (const owned of this.places.owned) {
      if (within(await realPathOf(owned), real)) throw protectedPath(`${file} leads to the server's own files`, 'path', { code: 'serverFiles', params: { file } });
    }
    const info = await stat(real);
    if (!info.isFile()) throw pathError(`${file} is not a file`, { code: 'notAFile', params: { file } });
    const megabytes = Math.round(maxBytes / (1024 * 1024));
    if (info.size > maxBytes) throw pathError(`${file} passes ${megabytes} MB`, { code: 'fileTooLarge', params: { file, megabytes } });
    return { real, shown: file };
  }
}
