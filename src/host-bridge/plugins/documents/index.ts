import type { HostPlugin } from '../../plugin-contract.js';
import { generatePdf } from './generate_pdf.js';
import { detectDocumentText } from './detect_document_text.js';

/** Host implementations of the documents plugins, by name. */
export const plugins: HostPlugin[] = [generatePdf, detectDocumentText];
