// The held-out real-specimen set: MRZ images from nine public repositories other than the five of
// document-set-sources.ts, gathered and transcribed by eye (issue 22, 2026-11-30) after the reader's rules
// were written, and benched before any rule looked at them: the one blind figure on real documents.
// `node bench/accuracy/document-set-sources.ts --set held-out --repos <dir> --out <dir>` writes it, JPEG and
// PNG files unchanged (the API takes both), the two BMPs (named .jpg in their repository) as PNG.
//
// As in the main set, `verifies` says whether the printed zone passes the server's parseMrz; left out:
// copies of the main set's images (the ICAO Utopia pages, a Swiss card, a British passport), renders made
// by software, documents that may be a real person's (Argentine identity cards, a Canadian passport, a
// New York driving licence whose holder could not be confirmed to be a sample, the Canadian specimen
// edited with another face), and images with a character no one can read with certainty. Several of the
// repositories carry no licence: their images are read from the repository, never copied into this one.
import type { DocumentSetSource } from './document-set-sources.ts';

export const HELD_OUT_DOCUMENT_SOURCES: readonly DocumentSetSource[] = [
  {
    repo: 'BlackSharkTech/Xavier-Passport-MRZ-OCR-iOS-Eval-SDK',
    commit: '88d8759c61cc6f3ffef906a8e1a7151f98593ae3',
    licence:
      'none for the repository itself (only third-party "Google Apache License.doc" and "OpenCV License.pdf"; the README describes an evaluation SDK)',
    documents: [
      {
        // USA passport, test/sample document 'TRAVELER MR', camera preview frame with green scanner overlay (thin cursor lines cross the zone), TD3
        path: 'readme_images/two_line_in_focus.jpg',
        name: 'blackshark_two_line_in_focus',
        verifies: true,
        zone: [
          'P<USATRAVELER<<MR<<<<<<<<<<<<<<<<<<<<<<<<<<<',
          '3400002306USA5001013M1101236902000002<140750',
        ],
      },
    ],
  },
  {
    repo: 'developer79433/passport_mrz_detector_cpp',
    commit: '71aaf3d58fe21d8154f69fff8390f9df020f9c81',
    licence: 'GPL-3.0 (LICENSE)',
    documents: [
      {
        // Belgium eID card (front+back), SPECIMEN, TD1
        path: 'examples/passport_01.jpg',
        name: 'dev79433_passport_01',
        verifies: true,
        zone: [
          'IDBEL590335801485120100200<<<<',
          '8512017F0901015BEL<<<<<<<<<<<7',
          'REINARTZ<<ULRIKE<KATIA<E<<<<<<',
        ],
      },
      {
        // Croatia ID card (2013 model), UZORAK/SPECIMEN, TD1 (all-zero data)
        path: 'examples/passport_03.jpg',
        name: 'dev79433_passport_03',
        verifies: false,
        zone: [
          'IOHRV000000000000000000000<<<<',
          '0000000M0000000HRV<<<<<<<<<<<0',
          'UZORAK<<SPECIMEN<<<<<<<<<<<<<<',
        ],
      },
      {
        // United Kingdom passport (2006), SPECIMEN, TD3
        path: 'examples/passport_05.jpg',
        name: 'dev79433_passport_05',
        verifies: true,
        zone: [
          'P<GBRJENNINGS<<PAUL<MICHAEL<<<<<<<<<<<<<<<<<',
          '0123456784GBR5011025M0810050<<<<<<<<<<<<<<00',
        ],
      },
      {
        // Croatia passport (2009), SPECIMEN, TD3
        path: 'examples/passport_06.jpg',
        name: 'dev79433_passport_06',
        verifies: true,
        zone: [
          'P<HRVSPECIMEN<<SPECIMEN<<<<<<<<<<<<<<<<<<<<<',
          '0070070071HRV8212258F1407019<<<<<<<<<<<<<<06',
        ],
      },
      {
        // France national ID card (1994 model), SPECIMEN; non-ICAO French 2x36 layout (French check digits pass)
        path: 'examples/passport_02.jpg',
        name: 'dev79433_passport_02',
        verifies: false,
        zone: ['IDFRABERTHIER<<<<<<<<<<<<<<<<<<<<<<<', '9409923102854CORINNE<<<<<<<6512068F4'],
      },
      {
        // Austria ID card (Personalausweis), MUSTERFRAU specimen, TD1; printed composite check 6, computed 4
        path: 'examples/passport_04.jpg',
        name: 'dev79433_passport_04',
        verifies: false,
        zone: [
          'IDAUT10000999<6<<<<<<<<<<<<<<<',
          '7109094F1112315AUT<<<<<<<<<<<6',
          'MUSTERFRAU<<ISOLDE<<<<<<<<<<<<',
        ],
      },
    ],
  },
  {
    repo: 'DocsaidLab/MRZScanner',
    commit: '6ed0d8f1154925e4932c47b237811fc45241dea1',
    licence: 'Apache-2.0 (LICENSE); images credited in the project docs to the MIDV-2020 dataset',
    documents: [
      {
        // Azerbaijan passport data page, MIDV-2020 mock-up document (not a real person), red 'MRZ' annotation overlay drawn over the zone, TD3
        path: 'docs/img1.jpg',
        name: 'docsaid_img1',
        verifies: true,
        zone: [
          'PCAZEABDULLAYEV<<DIL<<<<<<<<<<<<<<<<<<<<<<<<',
          'C193895647AZE9408148M28081525188L2V<<<<<<<42',
        ],
      },
      {
        // Azerbaijan passport data page, MIDV-2020 mock-up printout photographed in hand (phone photo, perspective), TD3
        path: 'docs/test_mrz.jpg',
        name: 'docsaid_test_mrz',
        verifies: true,
        zone: [
          'PCAZEQAQARIN<<FIDAN<<<<<<<<<<<<<<<<<<<<<<<<<',
          'C946302620AZE6707297F23031072W12IMJ<<<<<<<40',
        ],
      },
    ],
  },
  {
    repo: 'evermeer/PassportScanner',
    commit: 'c2b7347835f709f890afef6a45947e1145f029c1',
    licence: 'BSD-3-Clause (LICENSE, "Copyright (c) 2015, Mirabeau")',
    documents: [
      {
        // Germany national ID card (nPA) back side, MUSTER specimen, TD1
        path: 'DE_identity.jpg',
        name: 'evermeer_DE_identity',
        verifies: true,
        zone: [
          'IDD<<T220001293<<<<<<<<<<<<<<<',
          '6408125<2010315D<<<<<<<<<<<<<4',
          'MUSTERMANN<<ERIKA<<<<<<<<<<<<<',
        ],
      },
      {
        // Netherlands passport (2006 model), SPECIMEN, TD3
        path: 'NLpaspoort.jpg',
        name: 'evermeer_NLpaspoort',
        verifies: true,
        zone: [
          'P<NLDMEULENDIJK<<LOES<ALBERTINE<<<<<<<<<<<<<',
          'XX00000000NLD7110195F1108280123456782<<<<<02',
        ],
      },
    ],
  },
  {
    repo: 'regulaforensics/DocumentReader-web-python-client',
    commit: 'b21d0211598ace5ffa1c30dc2a5dbbd7a062bf9e',
    licence: 'none: no LICENSE file, and no licence field in setup.py',
    documents: [
      {
        // Germany official passport (Dienstpass, type PO), MUSTERMANN specimen, infrared capture (grayscale) of the same page as WHITE, TD3
        path: 'example/IR.jpg',
        name: 'regula-pyclient_IR',
        verifies: true,
        zone: [
          'POD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<',
          'C01YPTNHM1D<<6408125F2702283<<<<<<<<<<<<<<<8',
        ],
      },
      {
        // Germany official passport (Dienstpass, type PO), MUSTERMANN specimen, white-light capture, TD3
        path: 'example/WHITE.jpg',
        name: 'regula-pyclient_WHITE',
        verifies: true,
        zone: [
          'POD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<',
          'C01YPTNHM1D<<6408125F2702283<<<<<<<<<<<<<<<8',
        ],
      },
    ],
  },
  {
    repo: 'saiful9379/MRZ_DETECTION',
    commit: '4aac2016f85d7b486720c2fa552ec96d3535f54e',
    licence: 'none: no LICENSE file anywhere in the history',
    documents: [
      {
        // Germany Bundeswehr military ID (Truppenausweis), specimen JORDIE JAN-ERIK (photo pixelated in source), TD1 type E
        path: 'data/B2 - VALID.png',
        name: 'saiful_B2-VALID',
        verifies: false,
        zone: [
          'EDD<<F555D03398<<<<<<<<<<<<<<<',
          '9205071<2010223<<<<<<<<<<<<<<8',
          'JORDIE<<JAN<ERIK<<<<<<<<<<<<<<',
        ],
      },
      {
        // Germany ID card (1987 model), MUSTERMANN specimen, TD2
        path: 'data/I1- INVALID.png',
        name: 'saiful_I1-INVALID',
        verifies: true,
        zone: ['IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', '1220000016D<<4509121<9110018<<<<<<<0'],
      },
      {
        // Germany ID card (1987-2000 model), MUSTERMANN specimen, TD2
        path: 'data/I2- INVALID.png',
        name: 'saiful_I2-INVALID',
        verifies: true,
        zone: ['IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', '1220003419D<<5708127<0704021<<<<<<<4'],
      },
      {
        // Germany ID card (2001 model), MUSTERMANN specimen, TD2
        path: 'data/I4- INVALID.png',
        name: 'saiful_I4-INVALID',
        verifies: true,
        zone: ['IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', '1220004047D<<6408125<1110078<<<<<<<2'],
      },
      {
        // Germany ID card (2001 model), MUSTERMANN specimen, TD2
        path: 'data/I5- INVALID.png',
        name: 'saiful_I5-INVALID',
        verifies: true,
        zone: ['IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', '1220003730D<<6408125<1401017<<<<<<<6'],
      },
      {
        // Germany provisional ID card (vorlaeufiger Personalausweis), MUSTERMANN specimen, TD2 type IT
        path: 'data/I6- VALID.png',
        name: 'saiful_I6-VALID',
        verifies: true,
        zone: ['ITD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', 'C<00000004D<<6408125F0404011<<<<<<<4'],
      },
      {
        // Germany ID card (2007 model), MUSTERMANN specimen, TD2
        path: 'data/I7- INVALID.png',
        name: 'saiful_I7-INVALID',
        verifies: true,
        zone: ['IDD<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<', '0053033941D<<6408125<1710319<<<<<<<0'],
      },
      {
        // Germany nPA ID card (2010 model, front+back), MUSTERMANN specimen, TD1
        path: 'data/I8- VALID.png',
        name: 'saiful_I8-VALID',
        verifies: true,
        zone: [
          'IDD<<T010012836<<<<<<<<<<<<<<<',
          '6408125<2010315D<<<<<<<<<<<<<8',
          'MUSTERMANN<<ERIKA<<<<<<<<<<<<<',
        ],
      },
      {
        // Germany ID card (2021 model, front+back), MUSTERMANN specimen, TD1
        path: 'data/I9- VALID.png',
        name: 'saiful_I9-VALID',
        verifies: true,
        zone: [
          'IDD<<L01XM00CH8<<<<<<<<<<<<<<<',
          '8308126<3108011D<<2108<<<<<<<3',
          'MUSTERMANN<<ERIKA<<<<<<<<<<<<<',
        ],
      },
    ],
  },
  {
    repo: 'SerdarHelli/MRZ_Passport_Reader_From_Image',
    commit: 'b47be8f226267522c36e7072f6e1b5923125f4f3',
    licence: 'none: no LICENSE file anywhere in the history',
    documents: [
      {
        // United Kingdom passport (2006 issue), specimen 'UNITED-KINGDOM-FIVE JODIE PIPPA', TD3, low-res
        path: 'example.jpg',
        name: 'serdarhelli_example',
        verifies: true,
        zone: [
          'P<GBRUNITED<KINGDOM<FIVE<<JODIE<PIPPA<<<<<<<',
          '1071857032GBR8501178F1601312<<<<<<<<<<<<<<02',
        ],
      },
      {
        // Iceland passport (2021 model, type PA), specimen AEVARSDOTTIR THURIDUR, phone photo of booklet, TD3
        path: 'example1.jpg',
        name: 'serdarhelli_example1',
        verifies: true,
        zone: [
          'PAISLAEVARSDOTTIR<<THURIDUR<OESP<<<<<<<<<<<<',
          'A3536444<7ISL1212123<3103108121212<1239<<<68',
        ],
      },
    ],
  },
  {
    repo: 'SmartEngines/SmartIDReader-Server-SDK',
    commit: 'ca688fbbf7c33046bd2ee62d9fc2f09750458c6d',
    licence: 'none: no LICENSE file (the README describes a commercial SDK)',
    documents: [
      {
        // Russia internal passport (ICAO-style MRZ, Cyrillic transliteration), specimen with placeholder name IMYAREK and zero numbers, TD3
        path: 'testdata/passport_rf_2.jpg',
        name: 'smartengines_passport_rf_2',
        verifies: false,
        zone: [
          'PNRUSIM8REK<<EVGENIQ<ALEKSANDROVI3<<<<<<<<<<',
          '1100000000RUS8209120M<<<<<<<4041217292000<46',
        ],
      },
    ],
  },
  {
    repo: 'vk1996/MRZ_Extract_And_Reader',
    commit: 'a6ab7d7163e27b9fc81a33e607cc43c4b5d70bfe',
    licence: 'Apache-2.0 (LICENSE at HEAD d9e8ca0c)',
    documents: [
      {
        // Germany passport (2017 model), MUSTERMANN specimen, phone photo on desk with red detection box drawn around card (not over zone), low-res, TD3; file deleted at HEAD d9e8ca0c
        path: 'document.png',
        name: 'vk1996_document',
        verifies: true,
        zone: [
          'P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<',
          'C01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4',
        ],
      },
    ],
  },
];
