// The second held-out real-specimen set: MRZ images from five public repositories used by neither
// document-set-sources.ts nor document-holdout-sources.ts, gathered and transcribed by eye without the
// project's reader ever being run on them: a second blind figure on real documents. Most images are
// scans of government specimen documents as published in the EU's PRADO register (KhizarAziz/MRZ-Scanner
// scraped them as training inputs); the rest are phone photos or scans of specimen passports.
//
// As in the other sets, `verifies` says whether the printed zone passes the server's parseMrz (every zone
// here does). Each zone was read character by character from the zoomed image; runs of zeros and fillers
// were counted against the ICAO field positions and the check digits. Left out: copies of images already
// in the other sets (PassportEye, Arg0s1080/mrz and Doubango files re-committed byte for byte, the ICAO
// Utopia pages, the Swiss card), the edited Canadian specimen (other face) and printouts of it, renders
// made by software, line crops, photos without a zone (driving licences, the French card's front), images
// whose specimen status could not be confirmed or that show a real person's document (Armenian, Albanian,
// Bosnian, Belgian, Egyptian, Angolan and Antigua passports, a Saudi visa, a Hungarian card, the Mr Bean
// prop, a Libyan passport without SPECIMEN marking), a Bulgarian licence zone too small to read, and near
// twins of images kept (a rotated copy, a second Vatican, Thai and Dutch specimen of the same holder, a
// third Swedish residence card, a second German MUSTERMANN passport already held out; two Danish specimen
// passports, which verify, only to keep the set at thirty). Several of the repositories carry no licence:
// their images are read from the repository, never copied into this one.
import type { DocumentSetSource } from './document-set-sources.ts';

export const SECOND_HELD_OUT_DOCUMENT_SOURCES: readonly DocumentSetSource[] = [
  {
    repo: 'KhizarAziz/MRZ-Scanner',
    commit: 'dbee2004df67226a2526334377fc4da502034208',
    licence:
      'none (README only; the images are specimen scans from the EU PRADO register, scraped by passport_scrapper.py)',
    documents: [
      {
        // Sweden residence permit card (AR), specimen STARK SIGGE with all-zero number, flatbed scan of the card back on black, TD1
        path: 'inputs/137640.JPG',
        name: 'khizar_137640',
        verifies: true,
        zone: [
          'ARSWE00000000<019800504<<<<<<<',
          '8005045M1305207CHN<<<<<<<<<<<7',
          'STARK<<SIGGE<<<<<<<<<<<<<<<<<<',
        ],
      },
      {
        // Romania provisional identity card (IT), specimen POPESCU IONESCU IOANA (all-zero number, UTO nationality), scan of the card, TD1
        path: 'inputs/162628.JPG',
        name: 'khizar_162628',
        verifies: true,
        zone: [
          'ITROU0000000<<0<<<<<<<<<<<<<<<',
          '7009068F0809018UTO<<<<<<<<<<<0',
          'POPESCU<IONESCU<<IOANA<<<<<<<<',
        ],
      },
      {
        // Sweden residence card for an EU family member (CR), SPECIMEN UPPEHAALLSKORT, red SPECIMEN stamp across the first line, TD1
        path: 'inputs/222034.jpg',
        name: 'khizar_222034',
        verifies: true,
        zone: [
          'CRSWE11011657<219650509<<<<<<<',
          '6505091M1710021ETH<<<<<<<<<<<3',
          'SPECIMEN<<UPPEHAALLSKORT<<<<<<',
        ],
      },
      {
        // Sweden permanent residence card (CR), SPECIMEN PERMANENT UPPEHAALLS, red SPECIMEN stamp across the first line, TD1 (name fills the line)
        path: 'inputs/275480.jpg',
        name: 'khizar_275480',
        verifies: true,
        zone: [
          'CRSWE12004990<719650509<<<<<<<',
          '6505091M1710021ETH<<<<<<<<<<<3',
          'SPECIMEN<<PERMANENT<UPPEHAALLS',
        ],
      },
      {
        // Poland identity card (2019 model) back, specimen KOWALSKI JAN, SPECIMEN printed faintly behind the zone, TD1
        path: 'inputs/308858.jpg',
        name: 'khizar_308858',
        verifies: true,
        zone: [
          'I<POLZZC3017302<<<<<<<<<<<<<<<',
          '7910018M2901215POL791001121790',
          'KOWALSKI<<JAN<<<<<<<<<<<<<<<<<',
        ],
      },
      {
        // Belgium eID card back, SPECIMEN, TD1 with the 12-digit card number continued in the optional data
        path: 'inputs/320584.jpg',
        name: 'khizar_320584',
        verifies: true,
        zone: [
          'IDBEL000590696<1015<<<<<<<<<<<',
          '9401013F2710017BEL000101123453',
          'SPECIMEN<<SPECIMEN<<<<<<<<<<<<',
        ],
      },
      {
        // Sweden residence card (CR), SPECIMEN SVEN (BRA nationality), SVERIGE watermark behind the zone, TD1
        path: 'inputs/336287.jpg',
        name: 'khizar_336287',
        verifies: true,
        zone: [
          'CRSWE059000162119790503<<<<<<<',
          '7905034M2509172BRA<<<<<<<<<<<8',
          'SPECIMEN<<SVEN<<<<<<<<<<<<<<<<',
        ],
      },
      {
        // Belgium foreigner card back, SPECIMEN, 10-character number continued in the optional data, red handwritten archive number under the zone, TD1
        path: 'inputs/340721.jpg',
        name: 'khizar_340721',
        verifies: true,
        zone: [
          'IDBELB00031615<76<<<<<<<<<<<<<',
          '9502286F2605100BEL950228998749',
          'SPECIMEN<<SPECIMEN<<<<<<<<<<<<',
        ],
      },
      {
        // Belgium card back, SPECIMEN (UTO nationality), red handwritten archive number under the zone, TD1
        path: 'inputs/343219.jpg',
        name: 'khizar_343219',
        verifies: true,
        zone: [
          'IDBEL0002128913<<<<<<<<<<<<<<<',
          '0001018F3011010UTO000101992008',
          'SPECIMEN<<SPECIMEN<<<<<<<<<<<<',
        ],
      },
      {
        // Lithuania identity card back, PAVYZDYS (specimen) BASANAVICIENE BIRUTE, all-zero number, yellow-green card, TD1
        path: 'inputs/346034.jpg',
        name: 'khizar_346034',
        verifies: true,
        zone: [
          'I<LTU00000000<049003111045<<<<',
          '9003118F3106017LTU<<<<<<<<<<<6',
          'BASANAVICIENE<<BIRUTE<<<<<<<<<',
        ],
      },
      {
        // Czech Republic identity card back, SPECIMEN VZOR, TD1
        path: 'inputs/346643.jpg',
        name: 'khizar_346643',
        verifies: true,
        zone: [
          'IDCZE9980096630<<<<<<<<<<<<<<<',
          '9301124M3108022CZE<<<<<<<<<<<6',
          'SPECIMEN<<VZOR<<<<<<<<<<<<<<<<',
        ],
      },
      {
        // Latvia residence permit (IR) for a UKR national, SPECIMEN MARIA, personal code in the optional data, TD1
        path: 'inputs/347299.jpg',
        name: 'khizar_347299',
        verifies: true,
        zone: [
          'IRLVAUA99208048325429<75731<<<',
          '0009302F2109309UKR<<<<<<<<<<<4',
          'SPECIMEN<<MARIA<<<<<<<<<<<<<<<',
        ],
      },
      {
        // Belgium card back, SPECIMEN, red handwritten archive number under the zone, TD1
        path: 'inputs/348184.jpg',
        name: 'khizar_348184',
        verifies: true,
        zone: [
          'IDBEL600000257<6642<<<<<<<<<<<',
          '1301014F2311207BEL130101123594',
          'SPECIMEN<<SPECIMEN<<<<<<<<<<<<',
        ],
      },
      {
        // Sweden identity card back, SPECIMEN SVEA, SWEDEN/SVERIGE guilloche text behind the zone, TD1
        path: 'inputs/349081.PNG',
        name: 'khizar_349081',
        verifies: true,
        zone: [
          'I<SWEXA00000023198208212384<<<',
          '8208215F2701013SWE<<<<<<<<<<<2',
          'SPECIMEN<<SVEA<<<<<<<<<<<<<<<<',
        ],
      },
      {
        // Vatican City service passport (PS), specimen PARADISI DOMENICO (number KK0000000), red SPECIMEN stamp and signature above the zone, TD3
        path: 'inputs/229180.jpg',
        name: 'khizar_229180',
        verifies: true,
        zone: [
          'PSVATPARADISI<<DOMENICO<<<<<<<<<<<<<<<<<<<<<',
          'KK00000000VAT7001017M1809244<<<<<<<<<<<<<<08',
        ],
      },
      {
        // Belgium passport (2022 model) data page, SPECIMEN EMMA, TD3
        path: 'inputs/328560.jpg',
        name: 'khizar_328560',
        verifies: true,
        zone: [
          'P<BELSPECIMEN<<EMMA<<<<<<<<<<<<<<<<<<<<<<<<<',
          'ES000000<2BEL9412147F2602280<<<<<<<<<<<<<<04',
        ],
      },
      {
        // Sovereign Military Order of Malta passport (XOM), specimen MUSTERMANN MAX (UTO nationality), TD3
        path: 'inputs/342446.JPG',
        name: 'khizar_342446',
        verifies: true,
        zone: [
          'P<XOMMUSTERMANN<<MAX<<<<<<<<<<<<<<<<<<<<<<<<',
          'D00022<<<9UTO7201013M1511217<<<<<<<<<<<<<<<8',
        ],
      },
      {
        // Liberia passport data page, SPECIMEN SAMPLE (number PP0000000), yellow guilloche behind the zone, TD3
        path: 'inputs/344722.JPG',
        name: 'khizar_344722',
        verifies: true,
        zone: [
          'P<LBRSPECIMEN<<SAMPLE<<<<<<<<<<<<<<<<<<<<<<<',
          'PP00000000LBR9007264F2207250<<<<<<<<<<<<<<<6',
        ],
      },
      {
        // New Zealand certificate of identity (PC) for a non-citizen, specimen FREDERICK WILHELM JOHANN (MDA nationality), SPECIMEN stamp, TD3 (name fills the line)
        path: 'inputs/345110.jpg',
        name: 'khizar_345110',
        verifies: true,
        zone: [
          'PCNZLNON<CITIZEN<<FREDERICK<WILHELM<JOHANN<<',
          'LC000681<8MDA6311261M1310074<<<<<<<<<<<<<<02',
        ],
      },
      {
        // Thailand emergency passport (PE), specimen POSHNASWADIWONG MATHANIDA, TD3
        path: 'inputs/345765.JPG',
        name: 'khizar_345765',
        verifies: true,
        zone: [
          'PETHAPOSHNASWADIWONG<<MATHANIDA<<<<<<<<<<<<<',
          'EP20000005THA8804112F21062831100100123111<04',
        ],
      },
      {
        // South Korea travel certificate (PT), specimen HONG GILDONG, TD3
        path: 'inputs/347589.jpg',
        name: 'khizar_347589',
        verifies: true,
        zone: [
          'PTKORHONG<<GILDONG<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'TC10000011KOR8808154M22063011234568<<<<<<<18',
        ],
      },
      {
        // Netherlands passport (2021 model), specimen DE BRUIJN WILLEKE LISELOTTE (number SPECI2021), TD3
        path: 'inputs/347626.jpg',
        name: 'khizar_347626',
        verifies: true,
        zone: [
          'P<NLDDE<BRUIJN<<WILLEKE<LISELOTTE<<<<<<<<<<<',
          'SPECI20212NLD6503101F3108309<<<<<<<<<<<<<<<0',
        ],
      },
      {
        // South Korea official passport (PO, 2020 model), specimen HONG GIL DONG, TD3
        path: 'inputs/348246.jpg',
        name: 'khizar_348246',
        verifies: true,
        zone: [
          'POKORHONG<<GIL<DONG<<<<<<<<<<<<<<<<<<<<<<<<<',
          'G123A45672KOR8808154M25122112250282V21650400',
        ],
      },
      {
        // Sweden alien's passport (PT), SPECIMEN SVEA (UTO nationality), large SVERIGE lettering behind the zone, TD3
        path: 'inputs/352525.JPG',
        name: 'khizar_352525',
        verifies: true,
        zone: [
          'PTSWESPECIMEN<<SVEA<<<<<<<<<<<<<<<<<<<<<<<<<',
          'XA00000115UTO8208215F250101719820821<<<<<<14',
        ],
      },
    ],
  },
  {
    repo: 'unloved/mrz_reader',
    commit: '18b4b1803003f845f01264fc9fac8da1a0725614',
    licence: 'MIT (LICENSE.txt)',
    documents: [
      {
        // Russia biometric passport data page, specimen IVANOV IVAN (number 1234567897), flat scan with crop marks, TD3
        path: 'fixtures/samples/russian.jpeg',
        name: 'unloved_russian',
        verifies: true,
        zone: [
          'P<RUSIVANOV<<IVAN<<<<<<<<<<<<<<<<<<<<<<<<<<<',
          '1234567897RUS8610164M2512152<<<<<<<<<<<<<<04',
        ],
      },
      {
        // Russia biometric passport (newer model), specimen IVANOV IVAN, phone photo of the open booklet under warm light, TD3
        path: 'fixtures/samples/russian_bio.jpeg',
        name: 'unloved_russian_bio',
        verifies: true,
        zone: [
          'P<RUSIVANOV<<IVAN<<<<<<<<<<<<<<<<<<<<<<<<<<<',
          '1234567897RUS8610164M3012154<<<<<<<<<<<<<<02',
        ],
      },
    ],
  },
  {
    repo: 'abdulrahman-hassanin/Passport_MRZ_Scanner',
    commit: '4ca48d5542d6c5377778c3c49d98381e9bde7c58',
    licence: 'none (README only)',
    documents: [
      {
        // Australia passport (P series), specimen CITIZEN JANE (number PE0915986), phone photo of the open booklet on a wooden table, TD3
        path: 'images/0.jpg',
        name: 'abdhassanin_0',
        verifies: true,
        zone: [
          'P<AUSCITIZEN<<JANE<<<<<<<<<<<<<<<<<<<<<<<<<<',
          'PE09159861AUS8406077F1903278<40600996K<<<<04',
        ],
      },
    ],
  },
  {
    repo: 'kby-ai/IDCardRecognition-Docker',
    commit: '6603fe5f2c7b28b3069b69394ad69ac78cbd6e35',
    licence:
      'none for the repository (license.txt is an SDK licence key; the README describes a commercial SDK)',
    documents: [
      {
        // USA passport (2020 model) data page, SPECIMEN TRAVELER HAPPY, diagonal SPECIMEN overprint, scan, TD3
        path: 'gradio/idcard_examples/2.jpg',
        name: 'kbyai_2',
        verifies: true,
        zone: [
          'P<USATRAVELER<<HAPPY<<<<<<<<<<<<<<<<<<<<<<<<',
          'E000077303USA6502056F3010149500101920<091824',
        ],
      },
    ],
  },
  {
    repo: 'Moamen189/Passport-Recogniton-System',
    commit: '89d433be889c3e21040b112ba28ae70a6faae572',
    licence: 'MIT (LICENSE)',
    documents: [
      {
        // British Overseas Territories (St Helena) passport data page, ST HELENA SPECIMEN ANGELA ZOE, small low-res scan, TD3
        path: 'Passport-Recogintion-Main/Image/britishp.jpg',
        name: 'moamen_britishp',
        verifies: true,
        zone: [
          'P<GBRST<HELENA<SPECIMEN<<ANGELA<ZOE<<<<<<<<<',
          '7606415605GBR8809117F2503103<<<<<<<<<<<<<<08',
        ],
      },
      {
        // Spain passport data page, specimen ESPANOLA ESPANOLA CARMEN, small low-res scan, TD3
        path: 'Passport-Recogintion-Main/Image/photo_2021-12-21_20-59-57.jpg',
        name: 'moamen_photo_2021-12-21_20-59-57',
        verifies: true,
        zone: [
          'P<ESPESPANOLA<ESPANOLA<<CARMEN<<<<<<<<<<<<<<',
          'ZAB0002549ESP8001014F2501017A9999999900<<<44',
        ],
      },
    ],
  },
];
