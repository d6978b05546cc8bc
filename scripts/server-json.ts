/**
 * server.json for the official MCP Registry (its server.json format, schema 2025-12-11): this server as a
 * `streamable-http` remote at `<api_base>/mcp`, written by `npm run gen` (scripts/gen-registry.ts) from the catalog
 * (the service folders) and registry.yaml's `provider`, and checked for drift like every generated file.
 * The name is the reverse-DNS of `provider.website`'s host and the provider's name (the registry proves the domain
 * at publication: docs/mcp.md).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export const SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'

const kebab = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export function renderServerJson(root: string, serviceCount: number): string {
  const yaml = Bun.YAML.parse(readFileSync(join(root, 'registry.yaml'), 'utf8')) as {
    provider: { name: string; website: string; api_base: string }
  }
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  const { name, website, api_base } = yaml.provider
  const host = new URL(website).hostname
  const server = {
    $schema: SERVER_SCHEMA,
    name: `${host.split('.').reverse().join('.')}/${kebab(name)}`,
    title: name,
    description: `${serviceCount} services as MCP tools, each paid per call with x402 (USDC on Base).`,
    version,
    websiteUrl: website,
    remotes: [{ type: 'streamable-http', url: `${api_base.replace(/\/$/, '')}/mcp` }],
  }
  return `${JSON.stringify(server, null, 2)}\n`
}
