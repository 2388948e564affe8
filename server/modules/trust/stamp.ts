import { PDFDocument, rgb, StandardFonts } from 'pdf-lib'

/**
 * Every page of a PDF handed out under NDA is marked with its reader's email address and the
 * date (issue 40), so that a copy that leaks names where it came from. A file that is not a PDF,
 * or one pdf-lib cannot open, is refused rather than handed out unmarked.
 */
export async function stampPdf(bytes: Uint8Array, email: string, day: Date): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false })
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  const mark = stampText(email, day)
  for (const page of pdf.getPages()) {
    const { width } = page.getSize()
    const size = Math.max(6, Math.min(9, width / 80))
    page.drawText(mark, {
      x: 24,
      y: 14,
      size,
      font,
      color: rgb(0.45, 0.45, 0.5),
      opacity: 0.85,
    })
  }
  return pdf.save()
}

/** The mark a stamped page carries, as a reader finds it in the page's text. */
export const stampText = (email: string, day: Date) =>
  `Shared under NDA with ${email} on ${day.toISOString().slice(0, 10)}`
