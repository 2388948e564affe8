import { errorText } from '../../contract/errors.ts'
import { API_PREFIX } from '../../contract/paths.ts'
import { type ApiClient, ApiError, api } from './client.ts'
import { readTokens } from './tokens.ts'

/** A binary answer of the API (an image, a file), with the bearer token and one refresh. */
export async function fetchBlob(path: string, client: ApiClient = api, init: RequestInit = {}) {
  const send = () =>
    fetch(`${API_PREFIX}${path}`, {
      ...init,
      headers: { ...init.headers, Authorization: `Bearer ${readTokens().access ?? ''}` },
    })
  let response = await send()
  if (response.status === 401 && (await client.refreshTokens())) response = await send()
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined)
    throw new ApiError(response.status, body, errorText(body, 'The file could not be downloaded'))
  }
  return response.blob()
}

/** Downloads a binary answer of the API as a file. */
export async function downloadPath(path: string, name: string, client: ApiClient = api) {
  const url = URL.createObjectURL(await fetchBlob(path, client))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
