/** resolveProxy: the proxy variables as curl and undici read them. */
import { ConfigError, resolveProxy, type ProxyConfig } from '../../src/client';

const CASES: [Record<string, string>, ProxyConfig | undefined, string][] = [

  [{}, undefined, 'no proxy variable: no proxy agent at all (the fast keep-alive pool)'],
  [{ NO_PROXY: 'localhost' }, undefined, 'NO_PROXY alone changes nothing'],
  [{ HTTP_PROXY: 'http://p:3128' }, { httpProxy: 'http://p:3128', httpsProxy: 'http://p:3128', noProxy: undefined }, 'https falls back to the http proxy'],
  [{ HTTPS_PROXY: 'http://s:3128', NO_PROXY: 'internal' }, { httpProxy: undefined, httpsProxy: 'http://s:3128', noProxy: 'internal' }, 'https only'],
  [{ HTTP_PROXY: 'http://UPPER:1', http_proxy: 'http://lower:1', no_proxy: 'a', NO_PROXY: 'b' }, { httpProxy: 'http://lower:1', httpsProxy: 'http://lower:1', noProxy: 'a' }, 'lower-case spellings win'],
  [{ HTTP_PROXY: '  ' }, undefined, 'blank is unset'],
];

it.each(CASES)('%j -> %j (%s)', (env, expected) => {
  expect(resolveProxy(env)).toEqual(expected);
});

it('a proxy variable that is not an http(s) URL is a ConfigError naming the variable, never its value', () => {
  for (const [name, value] of [['HTTPS_PROXY', 'not a url with-pa55word'], ['HTTP_PROXY', 'socks5://u:pa55word@h:1']]) {
    let err: unknown;
    try {
      resolveProxy({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variables).toEqual([name]);
    expect((err as Error).message).toContain(name);
    expect((err as Error).message).not.toContain('pa55word');
  }
});
