import { describe, expect, test } from 'vitest';
import { blockedAddressReason } from './blocked-address-reason.js';

describe('blockedAddressReason', () => {
  test.each([
    ['127.0.0.1', /loopback/],
    ['127.255.1.2', /loopback/],
    ['10.1.2.3', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local.*metadata/],
    ['100.64.0.1', /carrier-grade/],
    ['100.100.100.200', /carrier-grade/],
    ['0.0.0.0', /this network/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['::1', /IPv6 loopback/],
    ['::', /unspecified/],
    ['fd00:ec2::254', /unique local/],
    ['fc00::1', /unique local/],
    ['fe80::1%eth0', /link-local/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /IPv4-mapped.*loopback/],
    ['::ffff:a00:1', /IPv4-mapped.*private/],
    ['[::ffff:169.254.169.254]', /IPv4-mapped.*link-local/],
    ['64:ff9b::10.0.0.1', /NAT64.*private/],
    ['2002:7f00:1::', /6to4.*loopback/],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', /Teredo/],
    ['2001::1', /Teredo/],
    ['64:ff9b:1::a00:1', /local-use NAT64/],
    ['example.com', /not an IP/],
  ])('refuses %s', (address, reason) => {
    expect(blockedAddressReason(address)).toMatch(reason);
  });

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2002:808:808::', '2001:4860:4860::8888'])(
    'allows public %s',
    (address) => {
      expect(blockedAddressReason(address)).toBeUndefined();
    },
  );
});
