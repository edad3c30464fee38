/* SPDX-License-Identifier: MIT */
/* Runs a fuzz target over every file of its corpus directories, so that make check
 * replays the corpus under ASan+UBSan without libFuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
        int n = 0;

        for (int i = 1; i < argc; i++) {
                DIR *d = opendir(argv[i]);
                struct dirent *de;

                if (!d) {
                        perror(argv[i]);
                        return 1;
                }
                while ((de = readdir(d))) {
                        char path[4096];
                        uint8_t buf[65536];
                        FILE *f;
                        size_t len;

                        if (de->d_name[0] == '.')
                                continue;
                        snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
                        f = fopen(path, "rb");
                        if (!f)
                                continue;
                        len = fread(buf, 1, sizeof(buf), f);
                        fclose(f);
                        LLVMFuzzerTestOneInput(buf, len);
                        n++;
                }
                closedir(d);
        }
        printf("%d inputs\n", n);
        return n > 0 ? 0 : 1;
}
