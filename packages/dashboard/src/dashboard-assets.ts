import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One file of the web app, ready to send. */
export interface DashboardAsset {
  /** `text/html; charset=utf-8`, `text/javascript; charset=utf-8`, … */
  type: string;
  body: Uint8Array;
  /** The same bytes gzipped (sent to browsers that accept gzip). */
  gzipped: Uint8Array;
  /** A strong ETag of the content. */
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * The folder of the prebuilt web app (`public/` of this package): beside this module's folder, or, when this module was
 * bundled into another program (the `ankole` CLI), where `@core/dashboard` is installed.
 * @throws Error when neither holds the app's `index.html`.
 */
export function dashboardFolder(): string {
  const beside = fileURLToPath(new URL('../public/', import.meta.url));
  if (existsSync(join(beside, 'index.html'))) return beside;
  const installed = join(createRequire(import.meta.url).resolve('@core/dashboard/package.json'), '..', 'public');
  if (existsSync(join(installed, 'index.html'))) return installed;
  throw new Error(`The dashboard's files are missing: no index.html in ${beside} or ${installed}.`);
}

/** Every file of the web app by its path under `public/` (`index.html`, `views/jobs.js`), read and gzipped once. */
export function loadDashboardAssets(folder: string = dashboardFolder()): Map<string, DashboardAsset> {
  const assets = new Map<string, DashboardAsset>();
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(folder, relative), { withFileTypes: true })) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(name);
        continue;
      }
      const type = TYPES[name.slice(name.lastIndexOf('.'))];
      if (type === undefined) continue;
      const body = readFileSync(join(folder, name));
      assets.set(name, { type, body, gzipped: gzipSync(body, { level: 9 }), etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` });
    }
  };
  walk('');
  return assets;
}
