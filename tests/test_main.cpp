// GoogleTest's main, leaving without static destructors (see app/main.cpp: CLBlast
// aborts in its own at exit once PoCL is loaded).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    const int status = RUN_ALL_TESTS();
    std::fflush(nullptr);
    std::_Exit(status);
}
