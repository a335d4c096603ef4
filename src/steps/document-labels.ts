import type { DocumentType } from '../api/verify-api.ts';
import type { MessageKey } from '../i18n/en.ts';

/** Message key naming each document type. */
export const DOCUMENT_LABEL: Record<DocumentType, MessageKey> = {
  passport: 'docPassport',
  id_card: 'docIdCard',
  driving_licence: 'docDrivingLicence',
  residence_permit: 'docResidencePermit',
  utility_bill: 'docUtilityBill',
  bank_statement: 'docBankStatement',
  tax_document: 'docTaxDocument',
  registration_certificate: 'docRegistrationCertificate',
};
