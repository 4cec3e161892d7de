import { WebConfigError } from './errors.js';

/**
 * Joins a provider base URL and a path, keeping any path prefix of the base.
 * @throws WebConfigError when the base is not an http(s) URL.
 */
export function endpointURL(baseURL: string, path: string, label: string): URL {
  let base: URL;
  try {
    base = new URL(baseURL);
  } catch (error) {
    throw new WebConfigError(`${label} base URL ${JSON.stringify(baseURL)} is not a URL.`, { cause: error });
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new WebConfigError(`${label} base URL ${JSON.stringify(baseURL)} must use http or https.`);
  }
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return new URL(`${prefix}${path}`, base);
}
