import type { Plugin } from '../types.js';
import generatePdf from './generate_pdf.js';
import detectDocumentText from './detect_document_text.js';

/** Declarations of the documents plugins (implementations: src/host-bridge/plugins/documents/). */
export const plugins: Plugin[] = [generatePdf, detectDocumentText];
