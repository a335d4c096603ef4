// `node bench/accuracy/face-set-sources.ts --repos <dir> --out <dir>`: rebuilds the face-pair set that
// docs/verification.md reports ("Face match on real photos of many people") from the nine public
// repositories it is gathered from, byte for byte: `<out>/people/<identity>/<n>.<ext>` and
// `<out>/SOURCES.md` naming each file's repository, path, commit and licence. The photos are press, film
// and stock photographs whose rights stay with their photographers, so only this list is committed, never
// the images. `<dir>` holds one git clone (or bare git directory) of each repository, named
// `<owner>+<name>` or `<name>`, with the commit given below in its history; nothing is downloaded.
//
// Identity names decide the halves (face-identity-set.ts sorts them and deals them alternately), so they
// are part of the set: lower-case full names, the Big Bang Theory characters as `bbt_<character>`, the
// Azure sample family by role, and vladmandic/human's people (added last) as `zz_human_*` so they sort
// after the earlier 55 and those keep their halves. Left out: byte duplicates (ageitgey's obama.jpg,
// obama2.jpg, biden.jpg again under tests/ and knn_examples/; Azure's *-person-group.jpg copies of the
// family photos, findsimilar.jpg, used-by-sample-code/detection1.jpg), resolution and padding variants of
// one photo (obama-240p/480p/720p/1080p.jpg, 32bit.png, obama_partial_face*.jpg), deepface's mirrored
// img11_reflection.jpg, photos of several people, and facenet-pytorch's bradley_cooper/1.jpg (not in the
// snapshot the set was rebuilt from).
import { mkdirSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFileReader } from './repository-files.ts';

export interface FaceSetSource {
  /** owner/name on GitHub. */
  repo: string;
  /** The commit the photos are read at. */
  commit: string;
  licence: string;
  /** Identity → the photos' paths in the repository, in the order they are numbered. */
  people: Record<string, string[]>;
}

export const FACE_SET_SOURCES: readonly FaceSetSource[] = [
  {
    repo: 'serengil/deepface',
    commit: '243209fd7b46ecdecf72665cc25219f6e8181f25',
    licence: 'MIT',
    people: {
      angelina_jolie: [
        'tests/unit/dataset/img1.jpg',
        'tests/unit/dataset/img2.jpg',
        'tests/unit/dataset/img4.jpg',
        'tests/unit/dataset/img5.jpg',
        'tests/unit/dataset/img6.jpg',
        'tests/unit/dataset/img7.jpg',
        'tests/unit/dataset/img10.jpg',
        'tests/unit/dataset/img11.jpg',
      ],
      elon_musk: [
        'tests/unit/dataset/img18.jpg',
        'tests/unit/dataset/img19.jpg',
        'tests/unit/dataset/img67.jpg',
      ],
      george_clooney: [
        'tests/unit/dataset/img38.jpg',
        'tests/unit/dataset/img39.jpg',
        'tests/unit/dataset/img40.jpg',
        'tests/unit/dataset/img41.jpg',
      ],
      jack_dorsey: [
        'tests/unit/dataset/img16.jpg',
        'tests/unit/dataset/img17.jpg',
        'tests/unit/dataset/img59.jpg',
        'tests/unit/dataset/img61.jpg',
        'tests/unit/dataset/img62.jpg',
      ],
      jeff_bezos: ['tests/unit/dataset/img20.jpg', 'tests/unit/dataset/img21.jpg'],
      jennifer_aniston: [
        'tests/unit/dataset/img3.jpg',
        'tests/unit/dataset/img12.jpg',
        'tests/unit/dataset/img53.jpg',
        'tests/unit/dataset/img54.jpg',
        'tests/unit/dataset/img55.jpg',
        'tests/unit/dataset/img56.jpg',
      ],
      katy_perry: [
        'tests/unit/dataset/img26.jpg',
        'tests/unit/dataset/img27.jpg',
        'tests/unit/dataset/img28.jpg',
        'tests/unit/dataset/img42.jpg',
        'tests/unit/dataset/img43.jpg',
        'tests/unit/dataset/img44.jpg',
        'tests/unit/dataset/img45.jpg',
        'tests/unit/dataset/img46.jpg',
      ],
      leonardo_dicaprio: [
        'tests/unit/dataset/img34.jpg',
        'tests/unit/dataset/img35.jpg',
        'tests/unit/dataset/img36.jpg',
        'tests/unit/dataset/img37.jpg',
      ],
      marissa_mayer: ['tests/unit/dataset/img22.jpg', 'tests/unit/dataset/img23.jpg'],
      mark_zuckerberg: [
        'tests/unit/dataset/img13.jpg',
        'tests/unit/dataset/img14.jpg',
        'tests/unit/dataset/img15.jpg',
        'tests/unit/dataset/img57.jpg',
        'tests/unit/dataset/img58.jpg',
      ],
      matt_damon: [
        'tests/unit/dataset/img29.jpg',
        'tests/unit/dataset/img30.jpg',
        'tests/unit/dataset/img31.jpg',
        'tests/unit/dataset/img32.jpg',
        'tests/unit/dataset/img33.jpg',
      ],
      scarlett_johansson: [
        'tests/unit/dataset/img8.jpg',
        'tests/unit/dataset/img9.jpg',
        'tests/unit/dataset/img47.jpg',
        'tests/unit/dataset/img48.jpg',
        'tests/unit/dataset/img49.jpg',
        'tests/unit/dataset/img50.jpg',
        'tests/unit/dataset/img51.jpg',
      ],
      sundar_pichai: ['tests/unit/dataset/img24.jpg', 'tests/unit/dataset/img25.jpg'],
    },
  },
  {
    repo: 'justadudewhohacks/face-api.js',
    commit: 'a86f011d72124e5fb93e59d5c4ab98f699dd5c9c',
    licence: 'MIT',
    people: {
      bbt_amy: [
        'examples/images/amy/amy1.png',
        'examples/images/amy/amy2.png',
        'examples/images/amy/amy3.png',
        'examples/images/amy/amy4.png',
        'examples/images/amy/amy5.png',
      ],
      bbt_bernadette: [
        'examples/images/bernadette/bernadette1.png',
        'examples/images/bernadette/bernadette2.png',
        'examples/images/bernadette/bernadette3.png',
        'examples/images/bernadette/bernadette4.png',
        'examples/images/bernadette/bernadette5.png',
      ],
      bbt_howard: [
        'examples/images/howard/howard1.png',
        'examples/images/howard/howard2.png',
        'examples/images/howard/howard3.png',
        'examples/images/howard/howard4.png',
        'examples/images/howard/howard5.png',
      ],
      bbt_leonard: [
        'examples/images/leonard/leonard1.png',
        'examples/images/leonard/leonard2.png',
        'examples/images/leonard/leonard3.png',
        'examples/images/leonard/leonard4.png',
        'examples/images/leonard/leonard5.png',
      ],
      bbt_penny: [
        'examples/images/penny/penny1.png',
        'examples/images/penny/penny2.png',
        'examples/images/penny/penny3.png',
        'examples/images/penny/penny4.png',
        'examples/images/penny/penny5.png',
      ],
      bbt_raj: [
        'examples/images/raj/raj1.png',
        'examples/images/raj/raj2.png',
        'examples/images/raj/raj3.png',
        'examples/images/raj/raj4.png',
        'examples/images/raj/raj5.png',
      ],
      bbt_sheldon: [
        'examples/images/sheldon/sheldon1.png',
        'examples/images/sheldon/sheldon2.png',
        'examples/images/sheldon/sheldon3.png',
        'examples/images/sheldon/sheldon4.png',
        'examples/images/sheldon/sheldon5.png',
      ],
      bbt_stuart: [
        'examples/images/stuart/stuart1.png',
        'examples/images/stuart/stuart2.png',
        'examples/images/stuart/stuart3.png',
        'examples/images/stuart/stuart4.png',
        'examples/images/stuart/stuart5.png',
      ],
    },
  },
  {
    repo: 'krasserm/face-recognition',
    commit: '363e4ec0f700e74b2ea7abceba289390d29dd43f',
    licence: 'Apache-2.0',
    people: {
      ariel_sharon: [
        'images/Ariel_Sharon/Ariel_Sharon_0001.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0002.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0003.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0004.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0005.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0006.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0007.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0008.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0009.jpg',
        'images/Ariel_Sharon/Ariel_Sharon_0010.jpg',
      ],
      arnold_schwarzenegger: [
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0001.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0002.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0003.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0004.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0005.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0006.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0007.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0008.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0009.jpg',
        'images/Arnold_Schwarzenegger/Arnold_Schwarzenegger_0010.jpg',
      ],
      colin_powell: [
        'images/Colin_Powell/Colin_Powell_0001.jpg',
        'images/Colin_Powell/Colin_Powell_0002.jpg',
        'images/Colin_Powell/Colin_Powell_0003.jpg',
        'images/Colin_Powell/Colin_Powell_0004.jpg',
        'images/Colin_Powell/Colin_Powell_0005.jpg',
        'images/Colin_Powell/Colin_Powell_0006.jpg',
        'images/Colin_Powell/Colin_Powell_0007.jpg',
        'images/Colin_Powell/Colin_Powell_0008.jpg',
        'images/Colin_Powell/Colin_Powell_0009.jpg',
        'images/Colin_Powell/Colin_Powell_0010.jpg',
      ],
      donald_rumsfeld: [
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0001.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0002.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0003.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0004.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0005.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0006.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0007.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0008.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0009.jpg',
        'images/Donald_Rumsfeld/Donald_Rumsfeld_0010.jpg',
      ],
      george_w_bush: [
        'images/George_W_Bush/George_W_Bush_0001.jpg',
        'images/George_W_Bush/George_W_Bush_0002.jpg',
        'images/George_W_Bush/George_W_Bush_0003.jpg',
        'images/George_W_Bush/George_W_Bush_0004.jpg',
        'images/George_W_Bush/George_W_Bush_0005.jpg',
        'images/George_W_Bush/George_W_Bush_0006.jpg',
        'images/George_W_Bush/George_W_Bush_0007.jpg',
        'images/George_W_Bush/George_W_Bush_0008.jpg',
        'images/George_W_Bush/George_W_Bush_0009.jpg',
        'images/George_W_Bush/George_W_Bush_0010.jpg',
      ],
      gerhard_schroeder: [
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0001.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0002.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0003.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0004.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0005.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0006.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0007.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0008.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0009.jpg',
        'images/Gerhard_Schroeder/Gerhard_Schroeder_0010.jpg',
      ],
      hugo_chavez: [
        'images/Hugo_Chavez/Hugo_Chavez_0001.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0002.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0003.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0004.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0005.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0006.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0007.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0008.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0009.jpg',
        'images/Hugo_Chavez/Hugo_Chavez_0010.jpg',
      ],
      jacques_chirac: [
        'images/Jacques_Chirac/Jacques_Chirac_0001.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0002.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0003.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0004.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0005.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0007.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0008.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0009.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0019.jpg',
        'images/Jacques_Chirac/Jacques_Chirac_0020.jpg',
      ],
      tony_blair: [
        'images/Tony_Blair/Tony_Blair_0001.jpg',
        'images/Tony_Blair/Tony_Blair_0002.jpg',
        'images/Tony_Blair/Tony_Blair_0003.jpg',
        'images/Tony_Blair/Tony_Blair_0004.jpg',
        'images/Tony_Blair/Tony_Blair_0005.jpg',
        'images/Tony_Blair/Tony_Blair_0006.jpg',
        'images/Tony_Blair/Tony_Blair_0007.jpg',
        'images/Tony_Blair/Tony_Blair_0008.jpg',
        'images/Tony_Blair/Tony_Blair_0009.jpg',
        'images/Tony_Blair/Tony_Blair_0010.jpg',
      ],
      vladimir_putin: [
        'images/Vladimir_Putin/Vladimir_Putin_0001.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0002.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0003.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0004.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0005.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0006.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0007.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0008.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0009.jpg',
        'images/Vladimir_Putin/Vladimir_Putin_0010.jpg',
      ],
    },
  },
  {
    repo: 'ageitgey/face_recognition',
    commit: '2e2dccea9dd0ce730c8d464d0f67c6eebb40c9d1',
    licence: 'MIT',
    people: {
      alex_lacamoire: [
        'examples/alex-lacamoire.png',
        'examples/knn_examples/test/alex_lacamoire1.jpg',
        'examples/knn_examples/train/alex_lacamoire/img1.jpg',
      ],
      barack_obama: [
        'examples/obama.jpg',
        'examples/obama2.jpg',
        'examples/obama_small.jpg',
        'examples/knn_examples/test/obama1.jpg',
        'tests/test_images/obama3.jpg',
      ],
      joe_biden: ['examples/biden.jpg', 'examples/knn_examples/train/biden/biden2.jpg'],
      kit_harington: [
        'examples/knn_examples/test/johnsnow_test1.jpg',
        'examples/knn_examples/train/kit_harington/john1.jpeg',
        'examples/knn_examples/train/kit_harington/john2.jpeg',
      ],
      lin_manuel_miranda: ['examples/lin-manuel-miranda.png'],
      rose_leslie: [
        'examples/knn_examples/train/rose_leslie/img1.jpg',
        'examples/knn_examples/train/rose_leslie/img2.jpg',
      ],
    },
  },
  {
    repo: 'Azure-Samples/cognitive-services-sample-data-files',
    commit: '65af3b93cab5f45c76594f3265210646d4b3809e',
    licence: 'MIT',
    people: {
      detection1_woman: ['Face/images/detection1.jpg'],
      detection2_man: ['Face/images/detection2.jpg'],
      family1_dad: [
        'Face/images/Family1-Dad1.jpg',
        'Face/images/Family1-Dad2.jpg',
        'Face/images/Family1-Dad3.jpg',
      ],
      family1_daughter: [
        'Face/images/Family1-Daughter1.jpg',
        'Face/images/Family1-Daughter2.jpg',
        'Face/images/Family1-Daughter3.jpg',
      ],
      family1_mom: ['Face/images/Family1-Mom1.jpg', 'Face/images/Family1-Mom2.jpg'],
      family1_son: ['Face/images/Family1-Son1.jpg', 'Face/images/Family1-Son2.jpg'],
      family2_lady: [
        'Face/images/Family2-Lady1.jpg',
        'Face/images/Family2-Lady2.jpg',
        'Face/images/woman1-person-group.jpg',
      ],
      family2_man: [
        'Face/images/Family2-Man1.jpg',
        'Face/images/Family2-Man2.jpg',
        'Face/images/man2-person-group.jpg',
      ],
      family3_lady: ['Face/images/Family3-Lady1.jpg'],
      family3_man: ['Face/images/Family3-Man1.jpg'],
    },
  },
  {
    repo: 'cmusatyalab/openface',
    commit: '051475225b5ae335918621077313085bbb7ab5a0',
    licence: 'Apache-2.0',
    people: {
      amy_adams: ['images/examples/adams.jpg'],
      eric_clapton: ['images/examples/clapton-1.jpg', 'images/examples/clapton-2.jpg'],
      john_lennon: ['images/examples/lennon-1.jpg', 'images/examples/lennon-2.jpg'],
      steve_carell: ['images/examples/carell.jpg'],
    },
  },
  {
    repo: 'davidsandberg/facenet',
    commit: '096ed770f163957c1e56efa7feeb194773920f6e',
    licence: 'MIT',
    people: {
      anthony_hopkins: ['data/images/Anthony_Hopkins_0001.jpg', 'data/images/Anthony_Hopkins_0002.jpg'],
    },
  },
  {
    repo: 'timesler/facenet-pytorch',
    commit: '787da06156087cd6b616fe6608213722bddc30cd',
    licence: 'MIT',
    people: {
      angelina_jolie: ['data/test_images/angelina_jolie/1.jpg'],
      kate_siegel: ['data/test_images/kate_siegel/1.jpg'],
      paul_rudd: ['data/test_images/paul_rudd/1.jpg'],
      shea_whigham: ['data/test_images/shea_whigham/1.jpg'],
    },
  },
  {
    repo: 'vladmandic/human',
    commit: '151df64d6143db8d0cf14df39e69be2f655f9f34',
    licence: 'MIT',
    people: {
      zz_human_emotions_a: [
        'samples/in/stock-emotions-a-1.jpg',
        'samples/in/stock-emotions-a-2.jpg',
        'samples/in/stock-emotions-a-3.jpg',
        'samples/in/stock-emotions-a-4.jpg',
        'samples/in/stock-emotions-a-5.jpg',
        'samples/in/stock-emotions-a-6.jpg',
        'samples/in/stock-emotions-a-7.jpg',
        'samples/in/stock-emotions-a-8.jpg',
      ],
      zz_human_emotions_b: [
        'samples/in/stock-emotions-b-1.jpg',
        'samples/in/stock-emotions-b-2.jpg',
        'samples/in/stock-emotions-b-3.jpg',
        'samples/in/stock-emotions-b-4.jpg',
        'samples/in/stock-emotions-b-5.jpg',
        'samples/in/stock-emotions-b-6.jpg',
        'samples/in/stock-emotions-b-7.jpg',
        'samples/in/stock-emotions-b-8.jpg',
      ],
      zz_human_teen: [
        'samples/in/stock-teen-1.jpg',
        'samples/in/stock-teen-2.jpg',
        'samples/in/stock-teen-3.jpg',
        'samples/in/stock-teen-4.jpg',
      ],
      zz_human_teen5: ['samples/in/stock-teen-5.jpg'],
      zz_human_teen6: ['samples/in/stock-teen-6.jpg'],
      zz_human_teen7: ['samples/in/stock-teen-7.jpg'],
      zz_human_teen8: ['samples/in/stock-teen-8.jpg'],
      zz_human_vlado: [
        'samples/in/person-vlado.jpg',
        'samples/in/person-vlado1.jpg',
        'samples/in/person-vlado5.jpg',
      ],
    },
  },
];

export interface FaceSetFile {
  identity: string;
  /** `<n>.<ext>` inside the identity's folder: numbered from 1 in source order, the extension kept. */
  file: string;
  repo: string;
  commit: string;
  path: string;
  licence: string;
}

/**
 * Every photo of the set with the file it becomes: an identity's photos numbered in the order of
 * {@link FACE_SET_SOURCES} (a person found in two repositories continues the count), `.jpeg` written as
 * `.jpg`, other extensions kept.
 *
 * @example
 * faceSetFiles().length // 276
 */
export function faceSetFiles(sources: readonly FaceSetSource[] = FACE_SET_SOURCES): FaceSetFile[] {
  const counts = new Map<string, number>();
  const files: FaceSetFile[] = [];
  for (const source of sources) {
    for (const [identity, paths] of Object.entries(source.people)) {
      for (const path of paths) {
        const n = (counts.get(identity) ?? 0) + 1;
        counts.set(identity, n);
        const extension = extname(path).toLowerCase() === '.jpeg' ? '.jpg' : extname(path).toLowerCase();
        files.push({
          identity,
          file: `${n}${extension}`,
          repo: source.repo,
          commit: source.commit,
          path,
          licence: source.licence,
        });
      }
    }
  }
  return files;
}

/**
 * Writes the set to `outDir` from the clones under `reposDir`; refuses a photo missing at its commit,
 * an empty one, or two with the same bytes.
 *
 * @example
 * buildFaceSet('/work/.mirror', '/work/data/faces') // 276 photos of 63 people
 */
export function buildFaceSet(reposDir: string, outDir: string): { identities: number; photos: number } {
  const read = setFileReader(reposDir);
  const rows: string[] = [];
  const identities = new Set<string>();
  for (const entry of faceSetFiles()) {
    const bytes = read(entry);
    const folder = join(outDir, 'people', entry.identity);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, entry.file), bytes);
    identities.add(entry.identity);
    rows.push(
      `| people/${entry.identity}/${entry.file} | ${entry.repo} | ${entry.path} | ${entry.commit.slice(0, 12)} | ${entry.licence} |`,
    );
  }
  writeFileSync(
    join(outDir, 'SOURCES.md'),
    [
      '# Face-pair set by identity (bench:accuracy --pairs)',
      '',
      'Written by bench/accuracy/face-set-sources.ts: each photo is the unchanged bytes of the file named, at the',
      "commit given. The licences are the repositories'; the photos are press, film and stock photographs whose",
      'rights stay with their photographers: keep them out of any repository.',
      '',
      `${identities.size} identities, ${rows.length} photos.`,
      '',
      '| file | repository | path | commit | licence |',
      '| --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
  return { identities: identities.size, photos: rows.length };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { repos: { type: 'string' }, out: { type: 'string' } } });
  if (!values.repos || !values.out) {
    console.error('usage: node bench/accuracy/face-set-sources.ts --repos <dir of git clones> --out <dir>');
    process.exit(2);
  }
  const { identities, photos } = buildFaceSet(resolve(values.repos), resolve(values.out));
  console.log(`${photos} photos of ${identities} people written to ${values.out}`);
}
