/** A `lang` attribute for content in one known language (undefined when unknown or mixed). */
export function contentLang(languages: readonly { id: string }[]): string | undefined {
  if (languages.length !== 1) return undefined;
  const id = languages[0].id;
  return /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(id) ? id : undefined;
}
