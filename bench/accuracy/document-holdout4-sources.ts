// The fourth held-out real-specimen set: MRZ images from three public repositories used by none of
// document-set-sources.ts, document-holdout-sources.ts, document-holdout2-sources.ts and
// document-holdout3-sources.ts, gathered and transcribed by eye without the project's reader ever being run
// on them: a fourth blind figure on real documents, small because few repositories still hold specimen
// pages the other sets do not. All three are TD3 passport data pages: a Norwegian specimen used as
// a load-test input, a Singapore specimen and an older United States sample (TRAVELER HAPPY) scanned.
//
// As in the other sets, `verifies` says whether the printed zone passes the server's parseMrz (all three
// do). Each zone was read character by character from the zoomed image, and runs of zeros and fillers were
// counted against the ICAO field positions. Left out: copies of documents the other sets hold
// (AntonioCS/readMRZ's seven test images are the same Belgian, French, Croatian, Austrian and British
// specimens held out from developer79433/passport_mrz_detector_cpp, its seventh a Kyrgyz passport of a real
// person; the Dutch DE BRUIJN, German MUSTERMANN and Norwegian NORMANN pages re-committed in
// MiniAiLive/FaceRecognition-IDRecognition-Playground-Next.JS), documents that look like a real person's
// or carry no specimen marking (a Lebanese passport in AntonioTannoury/Passport_EasyOCR, a Canadian passport
// in egemenzeytinci/readmrz, an Iranian passport photo in hasanzadegan/passportMrzScanner, United States
// passports without SPECIMEN marking in Devdvedsbgrb/OCR-model and MiniAiLive, a Singapore child's page in
// Solaireis/OCR-ML), renders and edited images (tony-xlh/MRZ-dataset's alexpsd.ru pages, the
// `sample_mrz` renders of duynguyen14/readMRZ, a Colombian card back with an edited zone in
// Eitol/colombian_cedula_mrz_reader, a stock-photo passport in Solaireis/OCR-ML), an MRZ line crop
// (nelsontkq/PassportCheck's mrz.jpg), and images without a zone (driving licences, payment cards, covers).
// Two of the repositories carry no licence: their images are read from the repository, never copied into
// this one.
import type { DocumentSetSource } from './document-set-sources.ts';

export const FOURTH_HELD_OUT_DOCUMENT_SOURCES: readonly DocumentSetSource[] = [
  {
    repo: 'regulaforensics/perf-tests',
    commit: '71c47941801cad3400526eea9318bcc064d79730',
    licence: 'none (README only: load tests for the Regula services); the image is a specimen page',
    documents: [
      {
        // Norway passport (2020 model), specimen OESTENBYEN AASAMUND SPECIMEN, red SPECIMEN stamp, image of the whole data page, TD3
        path: 'docreader/locust-test/request-data/test-doc.jpg',
        name: 'regulaperf_test-doc',
        verifies: true,
        zone: [
          'P<NOROESTENBYEN<<AASAMUND<SPECIMEN<<<<<<<<<<',
          'CCC0144306NOR5604230M3006128<<<<<<<<<<<<<<04',
        ],
      },
    ],
  },
  {
    repo: 'Solaireis/OCR-ML',
    commit: '5c64d76331b50a5551ad73e11451afbe7bbc88f3',
    licence: 'none (README only)',
    documents: [
      {
        // Singapore passport (PA), specimen WONG KARA YUN EN (number K0000000E), red SPECIMEN stamp, small scan (440 px wide), TD3
        path: 'Passport.jpg',
        name: 'solaireis_Passport',
        verifies: true,
        zone: [
          'PASGPWONG<<KARA<YUN<EN<<<<<<<<<<<<<<<<<<<<<<',
          'K0000000E4SGP7705038F2210300S7788888H<<<<<98',
        ],
      },
    ],
  },
  {
    repo: 'nelsontkq/PassportCheck',
    commit: '7f088660c7b1af2bdf84445f40f4a310353e0be9',
    licence: 'Unlicense (UNLICENSE, public domain dedication); the image is a United States sample page',
    documents: [
      {
        // United States passport (2007 model), sample TRAVELER HAPPY (number 340007237), CANCELLED stamp, scan, TD3
        path: 'src/passportcheck/passport.jpg',
        name: 'nelsontkq_passport',
        verifies: true,
        zone: [
          'P<USATRAVELER<<HAPPY<<<<<<<<<<<<<<<<<<<<<<<<',
          '3400072370USA6707046F1608078910000193<113538',
        ],
      },
    ],
  },
];
