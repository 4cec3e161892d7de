import { chmod, chown, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localSocketDistrust } from './check-local-socket.js';
import { connectLocalSocket, localTokens } from './local-socket.js';

const isRoot = process.getuid?.() === 0;

describe('commands refuse a local socket another user may have planted', () => {
  const folders: string[] = [];
  const servers: net.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
    for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
  });

  /** A socket at `<dataDir>.sock` that counts who connects to it. */
  async function plant(parent: string): Promise<{ dataDir: string; socketPath: string; connections: () => number }> {
    const dataDir = path.join(parent, 'db');
    const socketPath = `${dataDir}.sock`;
    let connections = 0;
    const server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    return { dataDir, socketPath, connections: () => connections };
  }

  async function privateFolder(): Promise<string> {
    const folder = await mkdtemp(path.join(tmpdir(), 'ankole-planted-'));
    folders.push(folder);
    return folder;
  }

  it('trusts its own socket in its own folder', async () => {
    const { socketPath } = await plant(await privateFolder());
    expect(await localSocketDistrust(socketPath)).toBeUndefined();
  });

  it.skipIf(!isRoot)("refuses a socket owned by another user (as root: one chowned to nobody) and sends it nothing, `tokens create` included", async () => {
    const planted = await plant(await privateFolder());
    await chown(planted.socketPath, 65534, 65534);
    await expect(connectLocalSocket(planted.dataDir)).rejects.toMatchObject({
      code: 'local_socket_untrusted',
      message: expect.stringContaining(`Refusing the local socket ${planted.socketPath}: it belongs to user id 65534, not to you (0)`),
    });
    await expect(localTokens(planted.socketPath, 'create', { kind: 'worker' })).rejects.toMatchObject({ code: 'local_socket_untrusted' });
    expect(planted.connections()).toBe(0);
  });

  it.skipIf(!isRoot)("accepts a folder writable by this user's own primary group only, refuses one writable by another group", async () => {
    const grouped = path.join(await privateFolder(), 'grouped');
    await mkdir(grouped);
    await chmod(grouped, 0o775);
    const planted = await plant(grouped);
    expect(await localSocketDistrust(planted.socketPath)).toBeUndefined();
    await chown(grouped, 0, 65534);
    expect(await localSocketDistrust(planted.socketPath)).toContain(`other users may write in the folder ${grouped} (mode 775)`);
  });

  it('refuses a socket in a folder others may write in (not sticky), and a symbolic link', async () => {
    const open = path.join(await privateFolder(), 'shared');
    await mkdir(open);
    await chmod(open, 0o777);
    const planted = await plant(open);
    await expect(connectLocalSocket(planted.dataDir)).rejects.toMatchObject({ code: 'local_socket_untrusted', message: expect.stringContaining(`other users may write in the folder ${open} (mode 777)`) });
    expect(planted.connections()).toBe(0);
    // Sticky (as /tmp is): others cannot rename or remove what is ours there.
    await chmod(open, 0o1777);
    expect(await localSocketDistrust(planted.socketPath)).toBeUndefined();

    const folder = await privateFolder();
    await symlink(planted.socketPath, path.join(folder, 'db.sock'));
    await expect(connectLocalSocket(path.join(folder, 'db'))).rejects.toMatchObject({ message: expect.stringContaining('it is a symbolic link, not a socket') });
    expect(planted.connections()).toBe(0);
  });
});
